import { Spin } from 'antd'
import { isValidElement, lazy, Suspense, useState, type ComponentType } from 'react'
import type { RouteObject } from 'react-router'

/**
 * Screens whose code loads apart from the first download (DESIGN.md §12): how one is declared
 * (lazyScreen, lazyScreens), fetched in the background (preloadScreensWhenIdle) and fetched by the router before
 * it is shown (loadScreensFirst). The screens themselves are listed in lazy-pages.tsx.
 */

function PageLoading() {
  return (
    <div style={{ display: 'flex', justifyContent: 'center', padding: 48 }}>
      <Spin size="large" />
    </div>
  )
}

/** Every screen's loader, for preloadScreens. */
const loaders = new Set<() => Promise<unknown>>()

/** A screen of a feature module, loaded with that module; the shell stays visible meanwhile. */
export function lazyScreen<M extends Record<string, unknown>>(
  load: () => Promise<M>,
  name: keyof M & string,
) {
  // The screen itself once its module has arrived. React.lazy suspends on its first render even
  // when the module is already there, and React then holds the content back for up to 300 ms
  // (the pace at which it reveals suspended content): a preloaded screen is rendered directly.
  let loaded: ComponentType | undefined
  const loadPage = async () => (loaded ??= (await load())[name] as ComponentType)
  loaders.add(loadPage)
  const Page = lazy(async () => ({ default: await loadPage() }))
  function LazyPage() {
    // chosen once per mount: switching component types later would remount the screen
    const [Screen] = useState(() => loaded ?? Page)
    return (
      <Suspense fallback={<PageLoading />}>
        <Screen />
      </Suspense>
    )
  }
  LazyPage.displayName = name
  LazyPage.preload = loadPage
  return LazyPage
}

type LazyScreen = ReturnType<typeof lazyScreen>

/**
 * The screens of one feature module, all loaded with it: the route table takes the ones it shows by
 * name, `const { ListPage, InfoPage } = lazyScreens(() => import('…/pages'))`. Each name read becomes
 * that export's lazyScreen (made once), so the module lists its screens only where it exports them.
 */
export function lazyScreens<M extends Record<string, unknown>>(
  load: () => Promise<M>,
): Readonly<Record<keyof M & string, LazyScreen>> {
  const made = new Map<string, LazyScreen>()
  return new Proxy({} as Record<keyof M & string, LazyScreen>, {
    get(_, name) {
      if (typeof name !== 'string') return undefined
      let screen = made.get(name)
      if (!screen) made.set(name, (screen = lazyScreen(load, name)))
      return screen
    },
  })
}

/** Loads every screen now (what the idle preload does; the route tests render with them in place). */
export async function preloadScreens(): Promise<void> {
  await Promise.all([...loaders].map((loader) => loader()))
}

/** Runs `task` once the browser is idle (at the latest after 2 s); answers a function that cancels it. */
export function whenIdle(task: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(task, { timeout: 2000 })
    return () => window.cancelIdleCallback(handle)
  }
  const handle = window.setTimeout(task, 200)
  return () => window.clearTimeout(handle)
}

/**
 * Fetches and compiles every screen in the background once the first screen is up and the browser
 * is idle (while the user types their password, say): the first download stays small and the
 * screens open without waiting for their code. Answers a function that cancels what has not started.
 */
export function preloadScreensWhenIdle(): () => void {
  // a screen that fails to load now is loaded again (and its failure shown) when it is opened
  return whenIdle(() => void preloadScreens().catch(() => undefined))
}

/** The loader of a route element that is a lazy screen, if it is one. */
function preloadOf(element: unknown): (() => Promise<unknown>) | undefined {
  if (!isValidElement(element)) return undefined
  const preload = (element.type as { preload?: unknown }).preload
  return typeof preload === 'function' ? (preload as () => Promise<unknown>) : undefined
}

/**
 * The route table with each screen's code fetched by the router before the screen is shown: a
 * navigation keeps the current screen until the next one can render, and a deep link renders at once
 * without passing through the screen's spinner (React reveals suspended content at a pace of 300 ms).
 * The spinner stays as the fallback for any screen rendered without the router having loaded it.
 */
export function loadScreensFirst(routes: RouteObject[], top = true): RouteObject[] {
  return routes.map((route) => {
    const preload = preloadOf(route.element)
    const children = route.children ? loadScreensFirst(route.children, false) : undefined
    return {
      ...route,
      ...(preload ? { lazy: async () => (await preload(), {}) } : {}),
      ...(children ? { children } : {}),
      // shown on a first load until the screen's code is there (a top-level route wants one)
      ...(top && children ? { hydrateFallbackElement: <FullPageLoading /> } : {}),
    } as RouteObject
  })
}

function FullPageLoading() {
  return (
    <div style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      <Spin size="large" />
    </div>
  )
}
