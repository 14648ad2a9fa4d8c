import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import type { OrgLevelNode, OrgSearchHit } from '@amg/contract'
import { fetchOrgPath, orgLevelQuery, orgPathKey, orgSearchKey, searchOrgs } from '../lib/org-parts'

/**
 * The department pickers' share of the tree, read level by level as the department screen's tree is
 * (decisions.md "The department tree by levels"): the roots, the children of each department opened
 * (`load`), and those of every department in `open` (the path to the chosen one).
 */
export function useOrgPickerLevels(open: readonly number[] = []) {
  const queryClient = useQueryClient()
  const roots = useQuery(orgLevelQuery('roots'))
  const [asked, setAsked] = useState<readonly number[]>([])
  const openSig = open.join(',')
  const ids = useMemo(
    () => [...new Set([...asked, ...(openSig ? openSig.split(',').map(Number) : [])])],
    [asked, openSig],
  )
  const levels = useQueries({ queries: ids.map((id) => orgLevelQuery(id)) })
  const levelsRef = useRef(levels)
  levelsRef.current = levels
  const levelsSig = levels.map((l) => l.dataUpdatedAt).join(',')
  const childrenOf = useMemo(() => {
    const map = new Map<number, OrgLevelNode[]>()
    ids.forEach((id, i) => {
      const data = levelsRef.current[i]?.data
      if (data) map.set(id, data)
    })
    return map
    // levelsSig stands for the levels' answers (read through the ref)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ids, levelsSig])

  const load = useCallback(
    async (id: number) => {
      setAsked((a) => (a.includes(id) ? a : [...a, id]))
      await queryClient.ensureQueryData(orgLevelQuery(id))
    },
    [queryClient],
  )
  return { roots: roots.data ?? [], loading: roots.isLoading, childrenOf, load }
}

/** `value`, once it has stayed the same for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return settled
}

/** A picker's search asks the server once typing pauses this long. */
export const ORG_SEARCH_DELAY_MS = 300

/** The departments whose name contains `text` (the server's search), each with its path. */
export function useOrgSearch(text: string) {
  return useQuery({
    queryKey: orgSearchKey(text),
    queryFn: () => searchOrgs(text),
    enabled: text !== '',
  })
}

/**
 * One department with its path from the root (the chosen one's path in a picker); `known` is false
 * once the server has said it does not exist.
 */
export function useOrgPath(id: number | undefined): { hit: OrgSearchHit | undefined; known: boolean } {
  const path = useQuery({
    queryKey: orgPathKey(id ?? 0),
    queryFn: () => fetchOrgPath(id!),
    enabled: id !== undefined,
  })
  const hit = path.data?.find((h) => h.id === id)
  return { hit, known: hit !== undefined || !path.isSuccess }
}
