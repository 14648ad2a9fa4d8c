import { useQuery } from '@tanstack/react-query'
import { routes } from '@amg/contract'
import { request } from '../../lib/route-call'

export const OVERVIEW_KEY = ['system', 'overview'] as const

/** The home page's figures: fetched afresh each time the home page is shown (they change with every write). */
export const useOverview = () =>
  useQuery({
    queryKey: OVERVIEW_KEY,
    queryFn: () => request(routes.system.overview, {}),
    refetchOnMount: 'always',
  })
