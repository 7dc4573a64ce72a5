import { createContext, useContext, type ComponentType, type ReactElement } from 'react'
import {
  UNSAFE_DataRouterContext,
  UNSAFE_DataRouterStateContext,
  UNSAFE_FetchersContext,
  UNSAFE_FrameworkContext,
  UNSAFE_LocationContext,
  UNSAFE_NavigationContext,
  UNSAFE_RouteContext,
  useLocation,
} from 'react-router'
import { useRootData } from './root-data'

/** What React Router gives a component where it is rendered: a piece rendered apart is given the same. */
export interface RouterContexts {
  dataRouter: React.ContextType<typeof UNSAFE_DataRouterContext>
  dataRouterState: React.ContextType<typeof UNSAFE_DataRouterStateContext>
  fetchers: React.ContextType<typeof UNSAFE_FetchersContext>
  framework: React.ContextType<typeof UNSAFE_FrameworkContext>
  location: React.ContextType<typeof UNSAFE_LocationContext>
  navigation: React.ContextType<typeof UNSAFE_NavigationContext>
  route: React.ContextType<typeof UNSAFE_RouteContext>
}

/** Renders `element` to markup, or gives the markup it made before for the same `key` (the server's, in entry.server.tsx). */
export type KeepMarkup = (key: string, element: ReactElement, contexts: RouterContexts) => string

export const KeepMarkupContext = createContext<KeepMarkup | null>(null)

/** Gives `children` the React Router contexts captured where the piece was asked for. */
export function WithRouterContexts({ contexts, children }: { contexts: RouterContexts; children: ReactElement }) {
  return (
    <UNSAFE_FrameworkContext value={contexts.framework}>
      <UNSAFE_DataRouterContext value={contexts.dataRouter}>
        <UNSAFE_DataRouterStateContext value={contexts.dataRouterState}>
          <UNSAFE_FetchersContext value={contexts.fetchers}>
            <UNSAFE_NavigationContext value={contexts.navigation}>
              <UNSAFE_LocationContext value={contexts.location}>
                <UNSAFE_RouteContext value={contexts.route}>{children}</UNSAFE_RouteContext>
              </UNSAFE_LocationContext>
            </UNSAFE_NavigationContext>
          </UNSAFE_FetchersContext>
        </UNSAFE_DataRouterStateContext>
      </UNSAFE_DataRouterContext>
    </UNSAFE_FrameworkContext>
  )
}

function useRouterContexts(): RouterContexts {
  return {
    dataRouter: useContext(UNSAFE_DataRouterContext),
    dataRouterState: useContext(UNSAFE_DataRouterStateContext),
    fetchers: useContext(UNSAFE_FetchersContext),
    framework: useContext(UNSAFE_FrameworkContext),
    location: useContext(UNSAFE_LocationContext),
    navigation: useContext(UNSAFE_NavigationContext),
    route: useContext(UNSAFE_RouteContext),
  }
}

interface KeptInsideProps<P extends object> {
  tag: 'header' | 'footer' | 'section' | 'div'
  attributes: React.HTMLAttributes<HTMLElement> & Record<`data-${string}`, string>
  /** Names `inside` among the kept pieces. */
  name: string
  /** Renders the same markup for the same props and address, whoever asks. */
  inside: ComponentType<P>
  props: P
  /** False when the piece shows something of this request (a form's answer): then it is rendered in place. */
  keep?: boolean
}

/**
 * `<tag {...attributes}>` around `<inside {...props} />`. The server renders the inside once per
 * address and props and sends that markup again: the site's frame (navigation, footer) was a third
 * of a small page's work. The markup is the same byte for byte as rendered in place, so the browser
 * hydrates it as usual (`inside` must read nothing of the request but the address and whether the
 * visitor saves data, which are part of the key, and no id of useId may reach its markup: those
 * follow the place in the tree). In the browser it is rendered as usual.
 */
export function KeptInside<P extends object>({
  tag: Tag,
  attributes,
  name,
  inside: Inside,
  props,
  keep: keepThis = true,
}: KeptInsideProps<P>) {
  const keep = useContext(KeepMarkupContext)
  const contexts = useRouterContexts()
  const { pathname } = useLocation()
  const { savesData } = useRootData()
  if (keep === null || !keepThis) {
    return (
      <Tag {...attributes}>
        <Inside {...props} />
      </Tag>
    )
  }
  const key = `${name}\n${pathname}\n${savesData ? 'saves data\n' : ''}${JSON.stringify(props)}`
  return <Tag {...attributes} dangerouslySetInnerHTML={{ __html: keep(key, <Inside {...props} />, contexts) }} />
}
