import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { OrgLevelNode } from '@amg/contract'
import { api } from '../../../test/mock-http'

/**
 * The department tree reopens the levels remembered in this browser whatever order their answers
 * arrive in: a remembered department whose parent's level is not loaded yet when the tree first
 * shows stays open, and opens once its level arrives.
 */

vi.mock('../../lib/http', () => import('../../../test/mock-http'))

const { OrgTree } = await import('./org-tree')

const node = (id: number, name: string, parent: number | null, kids: number): OrgLevelNode => ({
  id,
  organizationName: name,
  description: null,
  parent,
  childCount: kids,
  hasChildren: kids > 0,
})
// 总公司(1) ─ 甲部(2) ─ 乙部(3) ─ 丙部(4)
const LEVELS: Record<string, OrgLevelNode[]> = {
  roots: [node(1, '总公司', null, 1)],
  '1': [node(2, '甲部', 1, 1)],
  '2': [node(3, '乙部', 2, 1)],
  '3': [node(4, '丙部', 3, 0)],
}

/** Each level's answer, held until the test lets it through. */
let held: Map<string, () => void>

beforeEach(() => {
  held = new Map()
  api.get.mockImplementation((_url: string, query: { roots?: number; parentId?: number }) => {
    const level = query.roots ? 'roots' : String(query.parentId)
    return new Promise((resolve) => held.set(level, () => resolve(LEVELS[level] ?? [])))
  })
  window.localStorage.setItem('amg.tree.org', JSON.stringify([1, 2, 3]))
})

afterEach(() => window.localStorage.clear())

async function answer(level: string) {
  await vi.waitFor(() => expect(held.has(level)).toBe(true))
  await act(async () => held.get(level)!())
}

describe('the department tree (lazy) reopens remembered levels', () => {
  it('when the roots answer before the levels under them, the remembered ones still open', async () => {
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <OrgTree onAction={() => {}} />
      </QueryClientProvider>,
    )
    // the roots arrive first: the tree shows with only the root, its children not loaded yet
    await answer('roots')
    await screen.findByText('总公司')
    // then the levels, deepest first (each is a call of its own; the order is the network's)
    await answer('3')
    await answer('2')
    await answer('1')
    // 甲部 and 乙部 were open: their children show
    await screen.findByText('甲部')
    await screen.findByText('乙部')
    await screen.findByText('丙部')
    // and nothing was forgotten
    expect(JSON.parse(window.localStorage.getItem('amg.tree.org')!)).toEqual([1, 2, 3])
  })
})
