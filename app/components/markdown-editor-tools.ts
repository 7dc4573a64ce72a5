/** The editor's heavier half (the site's Markdown renderer and the paste converter), loaded once the form is on screen. */
export { renderMarkdown } from '~/platform/markdown'
export { pastedHtmlToMarkdown } from './pasted-html-to-markdown'
