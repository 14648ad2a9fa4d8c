import { lazy, Suspense, useEffect, useState } from 'react'
import { createBrowserRouter, RouterProvider } from 'react-router'
import { routerFlushSync } from '../lib/router-flush-sync'
import { setNavigator } from '../lib/navigation'
import { onUnauthorized } from '../lib/unauthorized'
import { loadScreensFirst, preloadScreensWhenIdle, whenIdle } from './lazy-screen'
import { createQueryClient, Providers } from './providers'
import { routes } from './routes'

// loaded once the browser is idle, with the antd components it warms up
const StyleWarmup = lazy(async () => ({ default: (await import('./style-warmup')).StyleWarmup }))

export function createRouter() {
  const router = createBrowserRouter(loadScreensFirst(routes))
  setNavigator((to) => void router.navigate(to, { replace: true }))
  return router
}

export function App() {
  const [router] = useState(createRouter)
  const [queryClient] = useState(createQueryClient)
  // A 401 ends the session: cached answers of the old session go with it.
  useEffect(() => onUnauthorized(() => queryClient.clear()), [queryClient])
  useEffect(() => preloadScreensWhenIdle(), [])
  // antd's styles for the signed-in frame and the lists, prepared in the background (style-warmup.tsx)
  const [warmup, setWarmup] = useState(false)
  useEffect(() => whenIdle(() => setWarmup(true)), [])
  return (
    <Providers queryClient={queryClient}>
      <RouterProvider router={router} flushSync={routerFlushSync} />
      {warmup ? (
        <Suspense fallback={null}>
          <StyleWarmup />
        </Suspense>
      ) : null}
    </Providers>
  )
}
