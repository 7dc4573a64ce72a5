import type { ReactNode } from 'react'

/* Building blocks of the public pages whose texts an administrator edits (app/modules/pages). */

/** Text split into paragraphs at blank lines. */
export function Paragraphs({ text, className }: { text: string; className?: string }) {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((paragraph, i) => (
      <p key={i} className={className}>
        {paragraph}
      </p>
    ))
}

export function PageHero({
  title,
  text,
  full = false,
  children,
}: {
  title: string
  text: string
  full?: boolean
  children?: ReactNode
}) {
  return (
    <section className={full ? 'hero hero-full' : 'hero'}>
      <div className="container hero-content">
        <h1>{title}</h1>
        <Paragraphs text={text} className="lead" />
        {children}
      </div>
    </section>
  )
}

/** A section with a heading, its text, and whatever follows. */
export function TextSection({
  id,
  heading,
  text,
  muted = false,
  children,
}: {
  id: string
  heading: string
  text?: string
  muted?: boolean
  children?: ReactNode
}) {
  return (
    <section className={muted ? 'section section-muted' : 'section'} aria-labelledby={id}>
      <div className="container">
        <h2 id={id}>{heading}</h2>
        {text ? <Paragraphs text={text} /> : null}
        {children}
      </div>
    </section>
  )
}

export function CardList({ items }: { items: ReadonlyArray<{ title: string; text: string }> }) {
  return (
    <ul className="card-grid">
      {items.map((item) => (
        <li key={item.title} className="card">
          <h3>{item.title}</h3>
          <Paragraphs text={item.text} />
        </li>
      ))}
    </ul>
  )
}

export interface ImpactFigureView {
  value: string
  label: string
  description: string
}

/** The impact figures from the site settings; with `detailed`, each with what it means. */
export function ImpactFigures({ figures, detailed = false }: { figures: ReadonlyArray<ImpactFigureView>; detailed?: boolean }) {
  if (figures.length === 0) return null
  return (
    <ul className={detailed ? 'impact-figures impact-figures-detailed' : 'impact-figures'} aria-label="Impact in numbers">
      {figures.map((figure) => (
        <li key={`${figure.value} ${figure.label}`} className="impact-figure">
          <span className="impact-value">{figure.value}</span>
          {detailed ? <h3 className="impact-label">{figure.label}</h3> : <span className="impact-label">{figure.label}</span>}
          {detailed && figure.description ? <p className="impact-description">{figure.description}</p> : null}
        </li>
      ))}
    </ul>
  )
}
