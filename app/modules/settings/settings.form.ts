import {
  BankAccountSchema,
  ImpactFigureSchema,
  MAX_BANK_ACCOUNTS,
  MAX_IMPACT_FIGURES,
  SiteSettingsSchema,
} from './settings.schema'

const LISTS: Record<string, { max: number; fields: string[] }> = {
  bankAccounts: { max: MAX_BANK_ACCOUNTS, fields: Object.keys(BankAccountSchema.shape) },
  impactFigures: { max: MAX_IMPACT_FIGURES, fields: Object.keys(ImpactFigureSchema.shape) },
}
const SCALAR_FIELDS = new Set(Object.keys(SiteSettingsSchema.shape).filter((key) => !Object.hasOwn(LISTS, key)))
// conform's field for the add/remove row buttons.
const INTENT_FIELD = '__intent__'

/**
 * The entries of a posted settings form that the form itself can produce: one value per field,
 * rows within their limits, and only the add-row and remove-row intents. Anything else is
 * dropped (and reported), so a crafted request can neither make the page render thousands of
 * rows nor turn a list into text that the form cannot show.
 */
export function settingsFormEntries(formData: FormData): { entries: FormData; dropped: boolean } {
  const entries = new FormData()
  let dropped = false
  for (const [name, value] of formData) {
    const expected =
      typeof value === 'string' &&
      !entries.has(name) &&
      (SCALAR_FIELDS.has(name) || isRowField(name) || (name === INTENT_FIELD && isRowIntent(value)))
    if (expected) entries.append(name, value)
    else dropped = true
  }
  return { entries, dropped }
}

function isRowField(name: string): boolean {
  const match = /^(\w+)\[(\d{1,3})\]\.(\w+)$/.exec(name)
  if (!match || !Object.hasOwn(LISTS, match[1])) return false
  const list = LISTS[match[1]]
  return Number(match[2]) < list.max && list.fields.includes(match[3])
}

function isRowIntent(value: string): boolean {
  try {
    const { type, payload } = JSON.parse(value)
    if (type !== 'insert' && type !== 'remove') return false
    if (typeof payload?.name !== 'string' || !Object.hasOwn(LISTS, payload.name)) return false
    return Object.keys(payload).every((key) => key === 'name' || (key === 'index' && Number.isInteger(payload.index)))
  } catch {
    return false
  }
}
