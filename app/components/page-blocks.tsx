import type { ReactNode } from 'react'
import { Link } from 'react-router'
import type { ResponsiveImageData } from '~/platform/media/image-types'
import { CardIcon, cardIconFor } from './card-icons'
import { ResponsiveImage } from './responsive-image'

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
  image,
  full = false,
  className,
  children,
}: {
  title: string
  text: string
  /** The page's photograph (page texts admin); without one the hero shows the brand gradient. */
  image?: ResponsiveImageData | null
  full?: boolean
  className?: string
  children?: ReactNode
}) {
  const classes = ['hero', full && 'hero-full', image && 'hero-photo', className].filter(Boolean).join(' ')
  return (
    <section className={classes}>
      {image ? (
        // The first thing a visitor sees: loaded at once, and a phone picks the 640 px file.
        <ResponsiveImage image={image} sizes="100vw" loading="eager" className="hero-image" />
      ) : null}
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

/**
 * Cards of title and text, each with a small drawing chosen from its title. `feature` (the home
 * page's programmes) gives each card a wide illustrated band instead of the small icon.
 */
/** Cards of a title and a text; with `linkTo`, each title leads there (the home page's help areas to /services). */
export function CardList({
  items,
  feature = false,
  linkTo,
}: {
  items: ReadonlyArray<{ title: string; text: string }>
  feature?: boolean
  linkTo?: string
}) {
  return (
    <ul className={feature ? 'card-grid card-grid-feature' : 'card-grid'}>
      {items.map((item, index) => (
        <li key={item.title} className={feature ? 'card card-feature' : 'card'}>
          <CardIcon name={cardIconFor(item.title, index)} className={feature ? `card-art card-art-${index % 3}` : 'card-icon'} />
          <h3>
            {linkTo ? (
              <Link to={linkTo} className="card-title-link">
                {item.title}
              </Link>
            ) : (
              item.title
            )}
          </h3>
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
