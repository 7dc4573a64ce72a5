import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import https from 'node:https'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import tls from 'node:tls'
import { afterAll, describe, expect, it } from 'vitest'
import { ADMIN, sessionCookieOf } from '../setup/http-session'
import { startTestServer } from '../setup/server'

// deploy/nginx.conf, the configuration docs/deployment.md gives, run by Debian's nginx in front
// of two processes of the site; only its ports and certificate paths are replaced (a
// self-signed certificate: obtaining a real one is left to the reader).
const root = path.resolve(import.meta.dirname, '../..')
const HOST = 'www.example.org'
const NGINX = ['/usr/sbin/nginx', ...(process.env.PATH ?? '').split(':').map((dir) => path.join(dir, 'nginx'))].find((file) =>
  fs.existsSync(file),
)
if (!NGINX) throw new Error('nginx is not installed: apt-get install -y nginx (.ci/run installs it).')

const site = { TRUST_PROXY: 'true', PUBLIC_URL: `https://${HOST}` }
const first = await startTestServer(site)
const second = await startTestServer(site, { sharedDatabase: first.database })
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nginx-test-'))
const [tlsPort, plainPort] = [await freePort(), await freePort()]
const nginx = await startNginx()
afterAll(async () => {
  nginx.kill('SIGQUIT')
  await new Promise((resolve) => (nginx.exitCode === null ? nginx.on('exit', resolve) : resolve(null)))
  await second.stop()
  await first.stop()
  fs.rmSync(dir, { recursive: true, force: true })
})

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

/** Replaces `from` in the configuration, failing when it is not there (the documented file moved on). */
function replaceIn(text: string, from: string | RegExp, to: string): string {
  if (!(typeof from === 'string' ? text.includes(from) : from.test(text))) throw new Error(`deploy/nginx.conf has no ${from}`)
  return typeof from === 'string' ? text.replaceAll(from, to) : text.replace(from, to)
}

async function startNginx(): Promise<ChildProcess> {
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', `/CN=${HOST}`],
      ...['-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')],
    ],
    { stdio: 'ignore' },
  )
  const port = (url: string) => new URL(url).port
  let siteConf = fs.readFileSync(path.join(root, 'deploy/nginx.conf'), 'utf8')
  siteConf = replaceIn(siteConf, 'server 127.0.0.1:3001;', `server 127.0.0.1:${port(first.url)};`)
  siteConf = replaceIn(siteConf, 'server 127.0.0.1:3002;', `server 127.0.0.1:${port(second.url)};`)
  siteConf = replaceIn(siteConf, /^\s*listen \[::\]:443 .*$/m, '')
  siteConf = replaceIn(siteConf, /^\s*listen \[::\]:80;$/m, '')
  siteConf = replaceIn(siteConf, 'listen 443 ssl', `listen 127.0.0.1:${tlsPort} ssl`)
  siteConf = replaceIn(siteConf, 'listen 80;', `listen 127.0.0.1:${plainPort};`)
  siteConf = replaceIn(siteConf, /ssl_certificate\s+\S+;/, `ssl_certificate ${path.join(dir, 'cert.pem')};`)
  siteConf = replaceIn(siteConf, /ssl_certificate_key\s+\S+;/, `ssl_certificate_key ${path.join(dir, 'key.pem')};`)
  fs.writeFileSync(path.join(dir, 'site.conf'), siteConf)
  // What Debian's /etc/nginx/nginx.conf provides around sites-enabled/, with this test's own folders.
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
  for (const name of temp) fs.mkdirSync(path.join(dir, name))
  fs.writeFileSync(
    path.join(dir, 'nginx.conf'),
    [
      'daemon off;',
      ...(process.getuid?.() === 0 ? ['user root;'] : []),
      'worker_processes 1;',
      `pid ${path.join(dir, 'nginx.pid')};`,
      'error_log stderr warn;',
      'events { worker_connections 256; }',
      'http {',
      '  access_log off;',
      ...temp.map((name) => `  ${name}_temp_path ${path.join(dir, name)};`),
      `  include ${path.join(dir, 'site.conf')};`,
      '}',
    ].join('\n'),
  )
  const child = spawn(NGINX!, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', 'stderr'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (d) => (output += d))
  child.stderr!.on('data', (d) => (output += d))
  const deadline = Date.now() + 10_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}:\n${output}`)
    const open = await new Promise<boolean>((resolve) =>
      net
        .connect(tlsPort, '127.0.0.1')
        .on('connect', function (this: net.Socket) {
          this.destroy()
          resolve(true)
        })
        .on('error', () => resolve(false)),
    )
    if (open) return child
    if (Date.now() > deadline) throw new Error(`nginx did not start:\n${output}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

interface Answer {
  status: number
  headers: http.IncomingHttpHeaders
  body: Buffer
}

/** One request to nginx over HTTPS as a browser at `https://www.example.org` sends it, from `clientAddress`. */
function viaProxy(
  pathname: string,
  options: { method?: string; headers?: Record<string, string>; body?: Buffer | string; clientAddress?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = https.request(
      {
        host: '127.0.0.1',
        port: tlsPort,
        servername: HOST,
        rejectUnauthorized: false,
        agent: false,
        localAddress: options.clientAddress ?? '127.0.0.1',
        method: options.method ?? 'GET',
        path: pathname,
        headers: { host: HOST, ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }))
      },
    )
    request.on('error', reject)
    request.end(options.body)
  })
}

/**
 * A request from `clientAddress` that nginx has begun and holds: its headers are sent, its body
 * never comes. Destroy the socket to end it.
 */
function heldRequest(clientAddress: string): Promise<tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    const tcp = net.connect({ host: '127.0.0.1', port: tlsPort, localAddress: clientAddress })
    const socket = tls.connect({ socket: tcp, servername: HOST, rejectUnauthorized: false }, () => {
      socket.write(`POST /contact HTTP/1.1\r\nHost: ${HOST}\r\nContent-Length: 100\r\n\r\n`)
      resolve(socket)
    })
    socket.on('error', reject)
  })
}

const sameSite = { origin: `https://${HOST}`, 'content-type': 'application/x-www-form-urlencoded' }

function signInVia(password: string, clientAddress: string) {
  return viaProxy('/login', {
    method: 'POST',
    headers: sameSite,
    body: new URLSearchParams({ email: ADMIN.email, password }).toString(),
    clientAddress,
  })
}

function cookieOf(answer: Answer): string | undefined {
  const headers = new Headers()
  for (const cookie of answer.headers['set-cookie'] ?? []) headers.append('set-cookie', cookie)
  return sessionCookieOf(new Response(null, { headers }))
}

describe('the site behind nginx (deploy/nginx.conf)', () => {
  it('sends plain HTTP to the HTTPS address', async () => {
    const answer = await new Promise<http.IncomingMessage>((resolve) =>
      http.get({ host: '127.0.0.1', port: plainPort, path: '/news?page=2', headers: { host: 'example.org' } }, resolve),
    )
    expect(answer.statusCode).toBe(301)
    expect(answer.headers.location).toBe('https://www.example.org/news?page=2')
  })

  it('knows visitors come over HTTPS: Secure cookies and HSTS', async () => {
    const signedIn = await signInVia(ADMIN.password, '127.0.0.5')
    expect(signedIn.status).toBe(302)
    expect(signedIn.headers['set-cookie']?.find((c) => c.startsWith('sid='))).toMatch(/;\s*Secure/i)
    const home = await viaProxy('/')
    expect(home.status).toBe(200)
    expect(home.headers['strict-transport-security']).toMatch(/max-age=\d+/)
    expect(home.body.toString()).toContain('<link rel="canonical" href="https://www.example.org/"/>')
  })

  it("counts sign-in attempts per visitor's address, whatever X-Forwarded-For the visitor sends", async () => {
    for (let i = 0; i < 5; i++) {
      const guess = await viaProxy('/login', {
        method: 'POST',
        headers: { ...sameSite, 'x-forwarded-for': `10.0.0.${i}` },
        body: new URLSearchParams({ email: ADMIN.email, password: 'a wrong guess' }).toString(),
        clientAddress: '127.0.0.2',
      })
      expect(guess.status).toBe(401)
    }
    expect((await signInVia('a wrong guess', '127.0.0.2')).status).toBe(429)
    // Another visitor, behind the same proxy, is not held up by the guesser.
    const other = await signInVia(ADMIN.password, '127.0.0.3')
    expect(other.status).toBe(302)
  })

  it('refuses a form posted from another site', async () => {
    const answer = await viaProxy('/contact', {
      method: 'POST',
      headers: { ...sameSite, origin: 'https://evil.example' },
      body: new URLSearchParams({ name: 'X', email: 'x@example.com', subject: 'donation', message: 'Hi' }).toString(),
    })
    expect(answer.status).toBe(403)
  })

  it("lets 5 MB upload chunks through, and answers a form over MAX_BODY_MB with the site's own page", async () => {
    const admin = cookieOf(await signInVia(ADMIN.password, '127.0.0.6'))!
    const size = 6 * 1024 * 1024
    const tus = { origin: `https://${HOST}`, cookie: admin, 'tus-resumable': '1.0.0' }
    const created = await viaProxy('/admin/uploads', {
      method: 'POST',
      headers: {
        ...tus,
        'upload-length': String(size),
        'upload-metadata': `filename ${Buffer.from('clip.mp4').toString('base64')},filetype ${Buffer.from('video/mp4').toString('base64')}`,
      },
    })
    expect(created.status).toBe(201)
    const location = new URL(created.headers.location!, `https://${HOST}`).pathname
    const chunk = await viaProxy(location, {
      method: 'PATCH',
      headers: { ...tus, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: Buffer.alloc(5 * 1024 * 1024, 1),
    })
    expect(chunk.status).toBe(204)
    expect(chunk.headers['upload-offset']).toBe(String(5 * 1024 * 1024))

    const tooLarge = await viaProxy('/contact', {
      method: 'POST',
      headers: { ...sameSite, accept: 'text/html' },
      body: `message=${'x'.repeat(13 * 1024 * 1024)}`,
    })
    expect(tooLarge.status).toBe(413)
    expect(tooLarge.headers['content-type']).toContain('text/html')
    expect(tooLarge.body.toString()).toContain('What you sent was larger than 12 MB')
  })

  it('lets one address have at most 128 pages and forms at the site at once, and lets other addresses in', async () => {
    const page = (await viaProxy('/marketplace/beaded-bracelets')).body.toString()
    const files = [page.match(/"(\/assets\/[^"]+\.js)"/)![1], page.match(/src="(\/media\/images\/[^"]+\.jpg)"/)![1]]
    const flooder = '127.0.0.77'
    const held = await Promise.all(Array.from({ length: 128 }, () => heldRequest(flooder)))
    try {
      // nginx counts a request once it has read its headers: ask until the 129th is refused.
      let status = 0
      for (const deadline = Date.now() + 5_000; status !== 429 && Date.now() < deadline;)
        status = (await viaProxy('/about', { clientAddress: flooder })).status
      expect(status).toBe(429)
      expect((await viaProxy('/about', { clientAddress: '127.0.0.78' })).status).toBe(200)
      // Its files are not counted; a page that is, is, whatever its address says.
      for (const file of files) expect((await viaProxy(file, { clientAddress: flooder })).status, file).toBe(200)
      expect((await viaProxy('/media/../about', { clientAddress: flooder })).status).toBe(429)
    } finally {
      held.forEach((socket) => socket.destroy())
    }
    let after = 429
    for (const deadline = Date.now() + 5_000; after === 429 && Date.now() < deadline;)
      after = (await viaProxy('/about', { clientAddress: flooder })).status
    expect(after).toBe(200)
  })

  it('passes the cache lifetimes of hashed assets and media files on', async () => {
    const page = (await viaProxy('/marketplace/beaded-bracelets')).body.toString()
    const asset = page.match(/"(\/assets\/[^"]+\.js)"/)![1]
    const image = page.match(/src="(\/media\/images\/[^"]+\.jpg)"/)![1]
    const expected = { [asset]: 'public, max-age=31536000, immutable', [image]: 'public, max-age=3600' }
    for (const file of [asset, image]) {
      const answer = await viaProxy(file)
      expect(answer.status, file).toBe(200)
      expect(answer.headers['cache-control'], file).toBe(expected[file])
    }
    const range = await viaProxy(image, { headers: { range: 'bytes=0-99' } })
    expect(range.status).toBe(206)
    expect(range.body.length).toBe(100)
  })
})
