import { describe, expect, it } from 'vitest'
import { isSearchPath } from './search-path'

describe('the search page', () => {
  it('is known however its path is written, and nothing else is taken for it', () => {
    for (const path of ['/search', '/SEARCH', '/search/', '/%73earch', '/search.data', '/Search.data']) {
      expect(isSearchPath(path), path).toBe(true)
    }
    for (const path of ['/', '/news', '/searches', '/search/more', '/%E0%A4%A', '/admin/search']) {
      expect(isSearchPath(path), path).toBe(false)
    }
  })
})
