import { afterEach, beforeEach, vi, type MockInstance } from 'vitest'

/*
 * An unexpected console.error (a React warning, a forgotten debug line, a library complaining)
 * fails the test that caused it. A test that expects one says so with `expectConsoleError()`.
 */
let spy: MockInstance<typeof console.error>
let expected = false

export function expectConsoleError(): MockInstance<typeof console.error> {
  expected = true
  return spy
}

beforeEach(() => {
  expected = false
  spy = vi.spyOn(console, 'error')
})

afterEach(() => {
  const calls = spy.mock.calls
  spy.mockRestore()
  if (!expected && calls.length > 0) {
    throw new Error(`Unexpected console.error:\n${calls.map((args) => args.map(String).join(' ')).join('\n')}`)
  }
})
