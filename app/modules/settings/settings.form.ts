import { formEntriesFilter } from '~/platform/form-entries'
import {
  BankAccountSchema,
  ImpactFigureSchema,
  MAX_BANK_ACCOUNTS,
  MAX_IMPACT_FIGURES,
  SiteSettingsSchema,
} from './settings.schema'

const LISTS = {
  bankAccounts: { max: MAX_BANK_ACCOUNTS, fields: Object.keys(BankAccountSchema.shape) },
  impactFigures: { max: MAX_IMPACT_FIGURES, fields: Object.keys(ImpactFigureSchema.shape) },
}

/**
 * The entries of a posted settings form that the form itself can produce: one value per field,
 * rows within their limits, and only the add-row and remove-row intents (see form-entries).
 */
export const settingsFormEntries = formEntriesFilter({
  fields: Object.keys(SiteSettingsSchema.shape).filter((key) => !Object.hasOwn(LISTS, key)),
  lists: LISTS,
})
