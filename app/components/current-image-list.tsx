import { useState } from 'react'
import { ResponsiveImage } from './responsive-image'
import type { ResponsiveImageData } from '~/platform/media/image-types'
import { useHydrated } from './use-hydrated'

/** An image the record has now, as the edit page shows it. */
export interface CurrentImage {
  id: string
  image: ResponsiveImageData
}

/**
 * A record's current images on its edit page, in order, each with a "Remove" checkbox; with
 * JavaScript, two or more can also be moved earlier or later. Sends `keepName` (every listed id, in the
 * order shown) and `removeName` (the ticked ones): the fields of `imageListFields`.
 */
export function CurrentImageList({
  current,
  keepName,
  removeName,
}: {
  current: readonly CurrentImage[]
  keepName: string
  removeName: string
}) {
  const [order, setOrder] = useState(() => current.map((c) => c.id))
  const [announcement, setAnnouncement] = useState('')
  const hydrated = useHydrated()
  if (order.length === 0) return null
  const byId = new Map(current.map((c) => [c.id, c]))

  function move(id: string, by: -1 | 1) {
    const from = order.indexOf(id)
    const to = from + by
    if (to < 0 || to >= order.length) return
    const next = [...order]
    next.splice(from, 1)
    next.splice(to, 0, id)
    setOrder(next)
    setAnnouncement(`Image moved to position ${to + 1} of ${next.length}.`)
  }

  return (
    <div className="field">
      <p className="field-label">Current images</p>
      <ol className="image-field-list" aria-label="Current images">
        {order.map((id, index) => {
          const position = `image ${index + 1}`
          return (
            <li key={id} className="image-field-item">
              <input type="hidden" name={keepName} value={id} />
              <ResponsiveImage image={byId.get(id)!.image} sizes="8rem" />
              <div className="image-field-actions">
                <label className="field-checkbox">
                  <input type="checkbox" name={removeName} value={id} />
                  Remove {position}
                </label>
                {hydrated && order.length > 1 ? (
                  <>
                    <button
                      type="button"
                      className="button-secondary button-small"
                      aria-label={`Move ${position} earlier`}
                      disabled={index === 0}
                      onClick={() => move(id, -1)}
                    >
                      Earlier
                    </button>
                    <button
                      type="button"
                      className="button-secondary button-small"
                      aria-label={`Move ${position} later`}
                      disabled={index === order.length - 1}
                      onClick={() => move(id, 1)}
                    >
                      Later
                    </button>
                  </>
                ) : null}
              </div>
            </li>
          )
        })}
      </ol>
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
    </div>
  )
}
