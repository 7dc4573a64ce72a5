import type { Migration } from 'kysely'
import * as accountsAndSettings from './0001-accounts-and-settings'

/** Every migration, in order. Listed explicitly so the server bundle, the CLI and the tests share one list. */
export const migrations: Record<string, Migration> = {
  '0001-accounts-and-settings': accountsAndSettings,
}
