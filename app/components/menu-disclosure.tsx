import { useEffect, useRef, type ReactNode } from 'react'

/**
 * A phone menu as a <details>: it opens and closes without JavaScript; with it, it also closes
 * when one of its links is chosen, on a tap or click anywhere outside it, and on Escape wherever
 * the focus is (from inside the menu, the focus goes back to its button). The public site's and
 * the admin area's navigation both use it.
 */
export function MenuDisclosure({ className, summary, children }: { className: string; summary: ReactNode; children: ReactNode }) {
  const menuRef = useRef<HTMLDetailsElement>(null)

  useEffect(() => {
    const menu = menuRef.current
    if (!menu) return
    const onPointerDown = (event: PointerEvent) => {
      if (menu.open && !menu.contains(event.target as Node)) menu.open = false
    }
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || !menu.open) return
      const focusWasInside = menu.contains(document.activeElement)
      menu.open = false
      if (focusWasInside) menu.querySelector('summary')?.focus()
    }
    document.addEventListener('pointerdown', onPointerDown)
    document.addEventListener('keydown', onKeyDown)
    return () => {
      document.removeEventListener('pointerdown', onPointerDown)
      document.removeEventListener('keydown', onKeyDown)
    }
  }, [])

  return (
    <details
      ref={menuRef}
      className={`menu-disclosure ${className}`}
      onClick={(event) => {
        if ((event.target as Element).closest('a') && menuRef.current) menuRef.current.open = false
      }}
    >
      <summary>{summary}</summary>
      {children}
    </details>
  )
}
