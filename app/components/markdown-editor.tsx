import { getTextareaProps } from '@conform-to/react'
import {
  useDeferredValue,
  useEffect,
  useId,
  useRef,
  useState,
  type ClipboardEvent,
  type KeyboardEvent,
  type MouseEvent,
} from 'react'
import { FieldFrame, hintIdFor, type FieldFrameProps } from './forms'
import { markdownEdit, type MarkdownAction, type TextEdit } from './markdown-formatting'

type Tools = typeof import('./markdown-editor-tools')

interface MarkdownEditorProps extends Omit<FieldFrameProps, 'note'> {
  rows: number
  required?: boolean
  /** The class the public page gives this text beside `markdown-text`, so the preview looks the same. */
  previewClassName?: string
}

const BUTTONS: { action: MarkdownAction; label: string; name: string; shortcut?: string }[] = [
  { action: 'bold', label: 'B', name: 'Bold', shortcut: 'Control+B' },
  { action: 'italic', label: 'I', name: 'Italic', shortcut: 'Control+I' },
  { action: 'heading', label: 'Heading', name: 'Heading' },
  { action: 'list', label: 'List', name: 'List' },
  { action: 'link', label: 'Link', name: 'Link' },
  { action: 'quote', label: 'Quote', name: 'Quote' },
]

/**
 * A Markdown text field with a toolbar, a preview drawn exactly as the public page draws it, and
 * pasting from Word, Google Docs or web pages as Markdown. Without JavaScript (or until its tools
 * have loaded) it is the plain textarea; the tools load only when a form with this field is shown.
 * Narrow screens switch between Write and Preview; from 64rem wide both stand side by side.
 */
/** What the field under a Markdown editor says, for the visitor without JavaScript who sees the plain textarea. */
export const MARKDOWN_HINT =
  'A blank line starts a new paragraph. Also possible: ## Heading, - list item, **bold**, [link text](https://example.org) or [our contact page](/contact).'

export function MarkdownEditor({ meta, label, hint, className, errors, rows, required, previewClassName }: MarkdownEditorProps) {
  const { key, ...props } = getTextareaProps(meta, { ariaDescribedBy: hintIdFor(meta, hint) })
  const textarea = useRef<HTMLTextAreaElement>(null)
  const [tools, setTools] = useState<Tools | null>(null)
  const [text, setText] = useState('')
  const [tab, setTab] = useState<'write' | 'preview'>('write')
  const previewText = useDeferredValue(text)
  const id = useId()

  useEffect(() => {
    let mounted = true
    // Offline or failed: the plain textarea still does the job.
    import('./markdown-editor-tools').then(
      (loaded) => mounted && setTools(loaded),
      () => undefined,
    )
    return () => {
      mounted = false
    }
  }, [])
  // A new textarea (conform resets the field) brings its own text.
  useEffect(() => {
    setText(textarea.current?.value ?? '')
  }, [key, tools])

  function apply(edit: TextEdit) {
    const field = textarea.current
    if (!field) return
    field.focus()
    field.setSelectionRange(edit.from, edit.to)
    // Typed through the browser, the change joins its undo history (Ctrl+Z).
    const typed = edit.insert ? document.execCommand('insertText', false, edit.insert) : document.execCommand('delete')
    if (!typed) {
      field.setRangeText(edit.insert, edit.from, edit.to)
      field.dispatchEvent(new Event('input', { bubbles: true }))
    }
    field.setSelectionRange(edit.selectStart, edit.selectEnd)
  }

  function format(action: MarkdownAction) {
    const field = textarea.current
    if (!field) return
    apply(markdownEdit(action, { text: field.value, start: field.selectionStart, end: field.selectionEnd }))
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (!tools || !(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return
    const action = ({ b: 'bold', i: 'italic' } as const)[event.key.toLowerCase() as 'b' | 'i']
    if (!action) return
    event.preventDefault()
    format(action)
  }

  function onPaste(event: ClipboardEvent<HTMLTextAreaElement>) {
    const html = event.clipboardData.getData('text/html')
    // Plain text pastes as it is.
    if (!tools || !html) return
    event.preventDefault()
    const field = event.currentTarget
    const markdown = tools.pastedHtmlToMarkdown(html)
    const end = field.selectionStart + markdown.length
    apply({ from: field.selectionStart, to: field.selectionEnd, insert: markdown, selectStart: end, selectEnd: end })
  }

  // A link in the preview opens in a new tab: leaving this page would lose the text being written.
  function onPreviewClick(event: MouseEvent<HTMLDivElement>) {
    const link = (event.target as Element).closest('a')
    if (!link) return
    event.preventDefault()
    window.open(link.href, '_blank', 'noopener')
  }

  const writeId = `${id}-write`
  const previewId = `${id}-preview`
  return (
    <FieldFrame meta={meta} label={label} hint={hint} className={className} errors={errors}>
      <div className={tools ? 'markdown-editor markdown-editor-ready' : 'markdown-editor'} data-tab={tab}>
        {tools ? (
          <div className="markdown-editor-tabs" role="tablist" aria-label="Write or preview">
            {(['write', 'preview'] as const).map((name) => (
              <button
                key={name}
                type="button"
                role="tab"
                id={`${id}-${name}-tab`}
                aria-controls={name === 'write' ? writeId : previewId}
                aria-selected={tab === name}
                className="markdown-editor-tab"
                onClick={() => setTab(name)}
              >
                {name === 'write' ? 'Write' : 'Preview'}
              </button>
            ))}
          </div>
        ) : null}
        <div className="markdown-editor-write" id={writeId}>
          {tools ? (
            <div className="markdown-editor-toolbar" role="group" aria-label="Formatting">
              {BUTTONS.map(({ action, label: text, name, shortcut }) => (
                <button
                  key={action}
                  type="button"
                  className={`markdown-editor-button markdown-editor-${action}`}
                  aria-label={name}
                  title={shortcut ? `${name} (${shortcut.replace('Control', 'Ctrl')})` : name}
                  aria-keyshortcuts={shortcut}
                  onClick={() => format(action)}
                >
                  {text}
                </button>
              ))}
            </div>
          ) : null}
          <textarea
            key={key}
            ref={textarea}
            className="field-input"
            {...props}
            rows={rows}
            required={required}
            onInput={(event) => setText(event.currentTarget.value)}
            onKeyDown={onKeyDown}
            onPaste={onPaste}
          />
        </div>
        {tools ? (
          <section id={previewId} className="markdown-editor-preview" aria-label="Preview">
            <p className="markdown-editor-preview-title" aria-hidden="true">
              Preview
            </p>
            {previewText.trim() ? (
              // The site's own renderer: raw HTML shown as text, only http(s), mailto and same-site links.
              <div
                className={previewClassName ? `markdown-text ${previewClassName}` : 'markdown-text'}
                onClick={onPreviewClick}
                dangerouslySetInnerHTML={{ __html: tools.renderMarkdown(previewText) }}
              />
            ) : (
              <p className="markdown-editor-preview-empty">Nothing to preview yet.</p>
            )}
          </section>
        ) : null}
      </div>
    </FieldFrame>
  )
}
