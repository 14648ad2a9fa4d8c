import { useQuery } from '@tanstack/react-query'
import { AMS_CHOICE, AUTHZ_KEY, fetchServiceChoices, type ServiceChoice } from './api'

/**
 * The services the page may ask about (DESIGN.md §10a), ams first; this server's own API alone when
 * the list cannot be read.
 */
export function useServiceChoices(): ServiceChoice[] {
  const choices = useQuery({
    queryKey: [...AUTHZ_KEY, 'services'],
    queryFn: fetchServiceChoices,
    retry: false,
    staleTime: 60_000,
  })
  return choices.data?.length ? choices.data : [AMS_CHOICE]
}
