import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useAuthStore, type AuthRecord, type UrlMap } from '../../lib/stores/auth-store'

/**
 * The permission calls of SPEC.md §7 "Auth", made through the authorisation store (SPEC.md §4):
 * the store keeps authInfo/authList, TanStack Query keeps the screens fresh.
 */
export const authKeys = {
  tree: ['auth', 'tree'] as const,
  detail: (code: string) => ['auth', 'detail', code] as const,
  backEnd: ['auth', 'back-end'] as const,
}

export function useAuthTree() {
  return useQuery({ queryKey: authKeys.tree, queryFn: () => useAuthStore.getState().fetchTree() })
}

export function useAuthDetail(code: string) {
  return useQuery({
    queryKey: authKeys.detail(code),
    queryFn: () => useAuthStore.getState().fetchOne(code),
    enabled: !!code,
    gcTime: 0,
  })
}

/** GET /auth/get-all-back-end → data.urlMap (method → group → operations). */
export function useBackEndCatalogue(enabled = true) {
  return useQuery<UrlMap>({
    queryKey: authKeys.backEnd,
    enabled,
    queryFn: () => useAuthStore.getState().fetchBackEnd(),
    staleTime: 5 * 60_000,
  })
}

export function useInsertAuth() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (record: AuthRecord) => useAuthStore.getState().insert(record),
    onSuccess: () => qc.invalidateQueries({ queryKey: authKeys.tree }),
  })
}

export function useUpdateAuth() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (record: AuthRecord) => useAuthStore.getState().update(record),
    onSuccess: (_data, record) => {
      void qc.invalidateQueries({ queryKey: authKeys.tree })
      if (record.code) void qc.invalidateQueries({ queryKey: authKeys.detail(record.code) })
    },
  })
}

export function useDeleteAuth() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (code: string) => useAuthStore.getState().remove(code),
    onSuccess: () => qc.invalidateQueries({ queryKey: authKeys.tree }),
  })
}
