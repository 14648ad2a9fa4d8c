import { Navigate, useLocation } from 'react-router'

/** A redirect that keeps the query string (SPEC.md §2 redirects keep id, title, ...). */
export function RedirectKeepQuery({ to }: { to: string }) {
  const location = useLocation()
  return <Navigate to={{ pathname: to, search: location.search }} replace />
}
