import { QueryClient } from '@tanstack/react-query'
import { render } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import type { CurrentUser } from '@amg/contract'
import { preloadScreens } from '../src/app/lazy-screen'
import { routes } from '../src/app/routes'
import { routerFlushSync } from '../src/lib/router-flush-sync'
import { Providers } from '../src/app/providers'
import { useSession } from '../src/lib/session-store'

// The screens load on demand in the console; here they are all loaded up front, so a test finds a
// screen as soon as it renders (as the console does once its idle preload is done).
await preloadScreens()

/** The signed-in super admin the route tests start from. */
export const adminUser: CurrentUser = {
  id: 1,
  nickName: 'admin',
  realName: null,
  status: 1,
  roles: [],
  auths: [],
  authCodes: [],
  calls: [],
  superAdmin: true,
  passwordIsInitial: false,
  manageScope: null,
}

/** Signs `user` in as the console holds a session: a super admin's pages are all of them. */
export function signInAs(user: CurrentUser) {
  useSession.setState({
    token: 'tok',
    user,
    auths: user.superAdmin ? ['/**'] : user.auths,
    userAuth: true,
    hideUserBaseInfo: true,
  })
}

/** The whole console's route table rendered at `url` (the test file mocks lib/http). */
export function renderAt(url: string) {
  const router = createMemoryRouter(routes, { initialEntries: [url] })
  render(
    <Providers queryClient={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} flushSync={routerFlushSync} />
    </Providers>,
  )
  return router
}

/** Where the router is now: path and query. */
export const at = (router: ReturnType<typeof createMemoryRouter>) =>
  router.state.location.pathname + router.state.location.search
