import path from 'node:path'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

// The project's own ESLint config, run on a file that exists only in memory at the path given.
const eslint = new ESLint({ cwd: path.resolve(import.meta.dirname, '../..') })

async function layerErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath })
  expect(result.messages.filter((m) => m.fatal)).toEqual([])
  return result.messages.filter((m) => m.ruleId === 'boundaries/dependencies' && m.severity === 2).map((m) => m.message)
}

describe('the layers lint', () => {
  it.each([
    ['a module', "import { LoginSchema } from '~/modules/users/users.schema'"],
    ['a route', "import { loader } from '~/routes/admin/dashboard'"],
    ['a component', "import type { ErrorList } from '../components/forms'"],
    ['a migration', "import { migrations } from '../../db/migrations'"],
  ])('refuses platform/ importing %s', async (_, importLine) => {
    expect(await layerErrors('app/platform/probe.server.ts', importLine)).toEqual([
      expect.stringMatching(/^platform\/ knows no feature/),
    ])
  })

  it.each([
    ['a route', "import { loader } from '~/routes/public/home'"],
    ['a component', "import { ErrorList } from '~/components/forms'"],
  ])('refuses a module importing %s', async (_, importLine) => {
    expect(await layerErrors('app/modules/users/probe.server.ts', importLine)).toEqual([
      expect.stringMatching(/^A module imports no route or component/),
    ])
  })

  it('refuses a component importing a route', async () => {
    expect(
      await layerErrors('app/components/probe.tsx', "import { ProductCard } from '~/routes/public/marketplace/product-card'"),
    ).toEqual([expect.stringMatching(/^A component imports no route/)])
  })

  it('refuses a component importing a *.server file, even from platform/', async () => {
    expect(await layerErrors('app/components/probe.tsx', "import { db } from '~/platform/db.server'")).toEqual([
      expect.stringMatching(/^A component imports no \*\.server file/),
    ])
  })

  it('refuses public and admin routes importing each other', async () => {
    expect(await layerErrors('app/routes/public/probe.tsx', "import { loader } from '../admin/dashboard'")).toEqual([
      expect.stringMatching(/^Public routes do not import admin routes/),
    ])
    expect(
      await layerErrors('app/routes/admin/probe.tsx', "import { ProductCard } from '~/routes/public/marketplace/product-card'"),
    ).toEqual([expect.stringMatching(/^Admin routes do not import public routes/)])
  })

  it('lets a route import modules, platform/ and components', async () => {
    const code = [
      "import { signInWithPassword } from '~/modules/users/sign-in.server'",
      "import { db } from '~/platform/db.server'",
      "import { ErrorList } from '~/components/forms'",
    ].join('\n')
    expect(await layerErrors('app/routes/public/probe.tsx', code)).toEqual([])
  })
})
