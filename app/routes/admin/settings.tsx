import { getFormProps, useForm, type FieldMetadata, type FormMetadata } from '@conform-to/react'
import type { ReactNode } from 'react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, Form } from 'react-router'
import type { Route } from './+types/settings'
import { auditSourceOf, recordAuditEvent } from '~/modules/audit/audit.service.server'
import { ErrorSummary } from '~/components/error-summary'
import { ErrorList, Field, TextareaField } from '~/components/forms'
import { useIsSubmitting } from '~/components/use-is-submitting'
import { getSiteSettings } from '~/modules/settings/settings.queries.server'
import { MAX_BANK_ACCOUNTS, MAX_IMPACT_FIGURES, SiteSettingsSchema, type SiteSettings } from '~/modules/settings/settings.schema'
import { saveSiteSettings } from '~/modules/settings/settings.service.server'
import { requireAccess } from '~/platform/auth.server'
import { redirectWithToast } from '~/platform/toast.server'
import settingsStylesUrl from '~/styles/admin-settings.css?url'
import { parseFormSubmission } from '~/platform/form-submission.server'

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: settingsStylesUrl }]

export const meta: Route.MetaFunction = () => [{ title: 'Site settings | Site admin' }]

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAccess({ request, context }, 'settings')
  // The form's own copy, read as stored.
  return { settings: await getSiteSettings() }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireAccess({ request, context }, 'settings')
  const submission = await parseFormSubmission(request, SiteSettingsSchema, { listButtons: true })
  // Without JavaScript, 'Add' and 'Remove' post the form too: answer with the changed list, unsaved.
  if (submission.status !== 'success') {
    return data({ result: submission.reply() }, { status: submission.status === 'error' ? 400 : 200 })
  }
  await saveSiteSettings(submission.value, { actor: user })
  await recordAuditEvent({
    by: auditSourceOf(user, context),
    action: 'settings.changed',
    target: { type: 'settings', id: null, label: 'Site settings' },
  })
  return redirectWithToast('/admin/settings', 'Settings saved')
}

/** What one row of each list is called, in the error summary and on the row. */
const LIST_ITEM_NAMES = { bankAccounts: 'Bank account', impactFigures: 'Impact figure' }

export default function SiteSettingsPage({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm<SiteSettings>({
    id: 'settings',
    lastResult: actionData?.result,
    defaultValue: loaderData.settings,
    constraint: getZodConstraint(SiteSettingsSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SiteSettingsSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  const saving = useIsSubmitting()

  return (
    <div className="stack">
      <h1>Site settings</h1>
      <p className="lead">
        These details appear across the public site: in the navigation and footer, on the Contact, Support and Impact pages, and
        in link previews.
      </p>
      <Form method="post" className="form settings-form" {...getFormProps(form)}>
        <ErrorSummary form={form} listItemNames={LIST_ITEM_NAMES} />
        <ErrorList id={form.errorId} errors={form.errors} variant="form" />

        <fieldset className="settings-section">
          <legend>Organisation</legend>
          <Field meta={fields.organisationName} label="Organisation name" />
          <Field meta={fields.tagline} label="Tagline" hint="One line about your work." />
          <Field meta={fields.foundedYear} label="Founded in (year)" inputMode="numeric" hint="For example 2008." />
          <Field meta={fields.location} label="Location" hint="Shown on the Contact page, e.g. Antigua." />
          <TextareaField
            meta={fields.footerText}
            label="Footer text"
            rows={2}
            hint="Shown at the bottom of every page, e.g. how long you have served."
          />
        </fieldset>

        <fieldset className="settings-section">
          <legend>Contact</legend>
          <Field meta={fields.phone} label="Phone" type="tel" autoComplete="off" />
          <Field
            meta={fields.email}
            label="E-mail"
            type="email"
            autoComplete="off"
            hint="Shown to visitors; messages from the contact form are sent here."
          />
          <Field
            meta={fields.whatsappNumber}
            label="WhatsApp number"
            type="tel"
            hint="With the country code, e.g. +1 268 555 0100."
          />
          <Field
            meta={fields.phoneCountryCode}
            label="Country calling code"
            type="tel"
            hint="With the area code, e.g. +1 268: put in front of 7-digit local WhatsApp numbers of marketplace products; with +1, a 10-digit number gets the 1."
          />
          <TextareaField
            meta={fields.distributionHours}
            label="Distribution hours"
            rows={2}
            hint="When families can collect food and clothing."
          />
        </fieldset>

        <fieldset className="settings-section">
          <legend>Links and giving</legend>
          <Field meta={fields.facebookUrl} label="Facebook page" type="url" hint="The full address, https://..." />
          <Field meta={fields.instagramUrl} label="Instagram page" type="url" />
          <Field
            meta={fields.donationUrl}
            label="Online donation page"
            type="url"
            hint="The 'Donate Now' button on the Support page opens it."
          />
        </fieldset>

        <fieldset className="settings-section">
          <legend>Bank accounts</legend>
          <p className="field-hint">Shown on the Support page for donations by bank transfer. Rows left empty are ignored.</p>
          <RowList
            form={form}
            list={fields.bankAccounts}
            rowName={LIST_ITEM_NAMES.bankAccounts}
            max={MAX_BANK_ACCOUNTS}
            addLabel="Add a bank account"
          >
            {(row) => {
              const account = row.getFieldset()
              return (
                <>
                  <RowField meta={account.label} label="Label" />
                  <RowField meta={account.bank} label="Bank" />
                  <RowField meta={account.accountName} label="Account name" />
                  <RowField meta={account.accountNumber} label="Account number" />
                  <TextareaField meta={account.notes} label="Notes" rows={2} className="field-wide" />
                </>
              )
            }}
          </RowList>
        </fieldset>

        <fieldset className="settings-section">
          <legend>Impact figures</legend>
          <p className="field-hint">
            Shown on the Home, Services and Impact pages, in this order: a figure such as 200+ and a label such as Families
            Served. Rows left empty are ignored.
          </p>
          <RowList
            form={form}
            list={fields.impactFigures}
            rowName={LIST_ITEM_NAMES.impactFigures}
            max={MAX_IMPACT_FIGURES}
            addLabel="Add an impact figure"
          >
            {(row) => {
              const figure = row.getFieldset()
              return (
                <>
                  <RowField meta={figure.value} label="Figure" />
                  <RowField meta={figure.label} label="Label" />
                  <TextareaField meta={figure.description} label="Description" rows={2} className="field-wide" />
                </>
              )
            }}
          </RowList>
        </fieldset>

        <fieldset className="settings-section">
          <legend>Calendar</legend>
          <Field
            meta={fields.timeZone}
            label="Time zone"
            autoComplete="off"
            spellCheck={false}
            hint="Event times are shown in this zone. A name like America/Antigua."
          />
        </fieldset>

        <div className="settings-save">
          <button type="submit" className="button" disabled={saving}>
            {saving ? 'Saving...' : 'Save settings'}
          </button>
        </div>
      </Form>
    </div>
  )
}

/** A field of a repeatable row: not marked required, since a row left empty is simply dropped. */
function RowField({ meta, label }: { meta: FieldMetadata<string | undefined>; label: string }) {
  return <Field meta={meta} label={label} required={false} />
}

/**
 * A list of rows (bank accounts, impact figures) with a Remove button per row and an Add button;
 * without JavaScript the buttons post the form, and the page comes back with the changed list.
 */
function RowList<Row extends Record<string, unknown>>({
  form,
  list,
  rowName,
  max,
  addLabel,
  children,
}: {
  form: FormMetadata<SiteSettings>
  list: FieldMetadata<Row[], SiteSettings>
  /** What one row is, capitalised: 'Bank account'. */
  rowName: string
  max: number
  addLabel: string
  /** The fields of one row. */
  children: (row: FieldMetadata<Row, SiteSettings>) => ReactNode
}) {
  const rows = list.getFieldList()
  return (
    <>
      <ErrorList id={list.errorId} errors={list.errors} />
      <div className="settings-rows">
        {rows.map((row, index) => (
          <fieldset key={row.key} className="settings-row">
            <legend>
              {rowName} {index + 1}
            </legend>
            <div className="settings-row-fields">{children(row)}</div>
            <div>
              <button className="button-secondary button-small" {...form.remove.getButtonProps({ name: list.name, index })}>
                Remove<span className="visually-hidden"> {`${rowName.toLowerCase()} ${index + 1}`}</span>
              </button>
            </div>
          </fieldset>
        ))}
      </div>
      <div>
        <button className="button-secondary" disabled={rows.length >= max} {...form.insert.getButtonProps({ name: list.name })}>
          {addLabel}
        </button>
      </div>
    </>
  )
}
