import { useEffect, useState } from 'react'
import { createBrowserRouter, RouterProvider } from 'react-router'
import { onUnauthorized } from '../lib/http'
import { setNavigator } from '../lib/navigation'
import { createQueryClient, Providers } from './providers'
import { routes } from './routes'

export function createRouter() {
  const router = createBrowserRouter(routes)
  setNavigator((to) => void router.navigate(to, { replace: true }))
  return router
}

export function App() {
  const [router] = useState(createRouter)
  const [queryClient] = useState(createQueryClient)
  // A 401 ends the session: cached answers of the old session go with it.
  useEffect(() => onUnauthorized(() => queryClient.clear()), [queryClient])
  return (
    <Providers queryClient={queryClient}>
      <RouterProvider router={router} />
    </Providers>
  )
}
