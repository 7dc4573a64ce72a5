import { CopyButton } from './copy-button'
import type { PreviewNotice } from '~/modules/previews/previews'

/** Above an item page opened through a preview link: what it is, and the link to pass on. */
export function PreviewBanner({ notice }: { notice: PreviewNotice }) {
  return (
    <aside className="preview-banner" aria-labelledby="preview-banner-title">
      <div className="container preview-banner-inner">
        <p id="preview-banner-title" className="preview-banner-title">
          {`Preview: this is ${notice.state}, not public yet.`}
        </p>
        <p>{`Anyone with this link can see it until ${notice.expires}, or until it is published or deleted:`}</p>
        <div className="preview-banner-link">
          <input
            className="field-input"
            readOnly
            value={notice.shareUrl}
            aria-label="Preview link to share"
            onFocus={(event) => event.currentTarget.select()}
          />
          <CopyButton
            value={notice.shareUrl}
            name="Copy the preview link"
            copied="Copied the preview link"
            failed="Could not copy: please select the link instead"
          />
        </div>
      </div>
    </aside>
  )
}
