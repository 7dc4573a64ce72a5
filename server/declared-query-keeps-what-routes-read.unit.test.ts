import fs from 'node:fs'
import path from 'node:path'
import type { ServerBuild } from 'react-router'
import { describe, expect, it } from 'vitest'
import { declareQueryParams } from '../app/platform/query-params'
import { withDeclaredQuery } from './declared-query'

const route = (id: string, parentId: string | undefined, shape: { path?: string; index?: boolean }, module = {}) => ({
  [id]: { id, parentId, ...shape, module },
})

// The shape of app/routes.ts: a pathless layout, lists with their items as children, a catch-all.
const manifest = {
  ...route('root', undefined, { path: '' }),
  ...route('layout', 'root', {}),
  ...route('home', 'layout', { index: true }),
  ...route('about', 'layout', { path: 'about' }),
  ...route('news', 'layout', { path: 'news' }, { queryParams: declareQueryParams('page') }),
  ...route('article', 'news', { path: ':slug' }),
  ...route('calendar', 'layout', { path: 'calendar' }, { queryParams: declareQueryParams('month') }),
  ...route('event', 'calendar', { path: ':slug' }, { queryParams: declareQueryParams('date') }),
  ...route('not-found', 'root', { path: '*' }),
} as unknown as ServerBuild['routes']

const declared = (target: string) => withDeclaredQuery(manifest, new URL(target, 'http://localhost'))

describe('the address the routes are given', () => {
  it('keeps only the parameters that the routes of its path declare, first value each', async () => {
    expect(await declared('/?a=1&utm_source=x')).toBe('/')
    expect(await declared('/news?fbclid=x&page=2&page=3')).toBe('/news?page=2')
    expect(await declared('/news?page=')).toBe('/news?page=')
    expect(await declared('/about?page=2')).toBe('/about')
    expect(await declared('/nowhere?page=2')).toBe('/nowhere')
    expect(await declared('/NEWS/?page=2')).toBe('/NEWS/?page=2')
  })

  it('keeps what a parent route reads, in the routes’ order', async () => {
    expect(await declared('/news/an-article?page=2')).toBe('/news/an-article?page=2')
    expect(await declared('/calendar/an-event?date=2026-01-02&x=1&month=2026-01')).toBe(
      '/calendar/an-event?month=2026-01&date=2026-01-02',
    )
  })

  it('keeps the routes a data request asks for, when its path has them', async () => {
    expect(await declared('/news.data?page=2&_routes=junk,news,root')).toBe('/news.data?page=2&_routes=root%2Cnews')
    expect(await declared('/_root.data?a=1&_routes=home')).toBe('/_root.data?_routes=home')
    // Naming none of them: the data of all of them, as React Router sends on a first visit.
    expect(await declared('/_root.data?_routes=junk')).toBe('/_root.data')
  })
})

describe('the routes', () => {
  it('read their query parameters only through their declarations', () => {
    const dir = path.resolve(import.meta.dirname, '../app/routes')
    const readers = fs
      .readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter(
        (file) =>
          /\.tsx?$/.test(file) &&
          /\bsearchParams\b|useSearchParams|location\.search\b/.test(fs.readFileSync(path.join(dir, file), 'utf8')),
      )
    expect(readers, 'declare them with declareQueryParams (app/platform/query-params.ts)').toEqual([])
  })
})
