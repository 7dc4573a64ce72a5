/**
 * The yardstick of `npm run bench`: a minimal node:http server that answers each page with the
 * same bytes the site sent, gzipped once and kept in memory. A page of the site reaching half of
 * this is doing little besides sending bytes. Usage: reference-server.ts <pages.json>, a JSON
 * object of URL path → base64 gzip body.
 */
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

const pages = JSON.parse(fs.readFileSync(process.argv[2], 'utf8')) as Record<string, string>
const bodies = new Map(Object.entries(pages).map(([urlPath, body]) => [urlPath, Buffer.from(body, 'base64')]))

const server = http.createServer((req, res) => {
  const body = bodies.get(req.url ?? '')
  if (!body) {
    res.writeHead(404).end()
    return
  }
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip', 'content-length': body.length })
  res.end(body)
})
server.listen(0, '127.0.0.1', () => console.log(`Listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`))
process.once('SIGTERM', () => server.close(() => process.exit(0)))
