import { MoreOutlined } from '@ant-design/icons'
import { Button, Menu, Typography, theme, type MenuProps } from 'antd'
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type MouseEvent, type ReactNode } from 'react'
import { createPortal } from 'react-dom'
import { mayMakeAll, type CallDescription } from '../lib/can-call'
import { useSession } from '../lib/session-store'

/**
 * A tree's node actions, the same way on every tree: the right-click menu at the pointer, and a "⋯"
 * button on each row that opens the same menu under itself, for a finger or a keyboard (a phone has
 * no right click, and hover does not exist there). The button shows on touch screens and narrow
 * windows always, elsewhere while the row is hovered or focused (global.css, .amg-node-actions).
 */

export const TREE_ACTIONS_HINT = '右键或点击 ⋯ 操作节点'

/** A tree's node actions by key, each with the calls it makes. */
export type TreeActionCalls = Record<string, CallDescription[]>

/** The keys of the actions the signed-in user may take (each needs all of its calls). */
export function useAllowedActions(actions: TreeActionCalls): ReadonlySet<string> {
  const user = useSession((s) => s.user)
  return useMemo(
    () =>
      new Set(
        Object.entries(actions)
          .filter(([, calls]) => mayMakeAll(calls, user))
          .map(([key]) => key),
      ),
    [actions, user],
  )
}

/** The one-line hint above a tree with node actions; nothing when the user may take none of them. */
export function TreeActionsHint({ actions }: { actions: TreeActionCalls }) {
  if (useAllowedActions(actions).size === 0) return null
  return (
    <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }} data-testid="tree-actions-hint">
      {TREE_ACTIONS_HINT}
    </Typography.Paragraph>
  )
}

export interface Point {
  x: number
  y: number
}

export interface Size {
  width: number
  height: number
}

/** Where the menu opens: the pointer for a right click, under the "⋯" button for a tap. */
export interface ActionsMenuState<Node> extends Point {
  node: Node
}

/** The width of the actions menu; a tap's menu is kept inside the window by it. */
export const ACTIONS_MENU_WIDTH = 140
const EDGE = 8

/** The point the menu opens at for a tap on the "⋯" button: under it, inside the window. */
export function belowButton(button: Element): Point {
  const rect = button.getBoundingClientRect()
  return {
    x: Math.max(EDGE, Math.min(rect.left, window.innerWidth - ACTIONS_MENU_WIDTH - EDGE)),
    y: rect.bottom,
  }
}

/** The default placement: at the point, moved back inside the window where it would leave it. */
export function insideWindow(at: Point, menu: Size): { left: number; top: number } {
  return {
    left: Math.max(0, Math.min(at.x, window.innerWidth - menu.width)),
    top: Math.max(0, Math.min(at.y, window.innerHeight - menu.height)),
  }
}

/**
 * The "⋯" button of a node row. It keeps the click from the row (which would select the node) and
 * hands the menu's opening point to `onOpen`.
 */
export function NodeActionsButton({ label, onOpen }: { label: string; onOpen: (at: Point) => void }) {
  return (
    <Button
      type="text"
      size="small"
      className="amg-node-actions"
      aria-label={`${label} 的操作`}
      aria-haspopup="menu"
      icon={<MoreOutlined />}
      onClick={(e: MouseEvent<HTMLElement>) => {
        e.stopPropagation()
        e.preventDefault()
        onOpen(belowButton(e.currentTarget))
      }}
    />
  )
}

/** A node row's label with its "⋯" button at the end of the row. */
export function NodeRow({ children, actions }: { children: ReactNode; actions: ReactNode }) {
  return (
    <span className="amg-node-row">
      {children}
      {actions}
    </span>
  )
}

/**
 * The actions menu of a node, in a portal (fixed positioning is then relative to the window whatever
 * the ancestors' styles). It closes on a press outside it, the wheel, a resize and Escape.
 */
export function NodeActionsMenu({
  at,
  items,
  onChoose,
  onClose,
  place = insideWindow,
  testId,
}: {
  at: Point
  items: MenuProps['items']
  onChoose: (key: string) => void
  onClose: () => void
  place?: (at: Point, menu: Size) => { left: number; top: number }
  testId: string
}) {
  const ref = useRef<HTMLDivElement>(null)
  const [pos, setPos] = useState<{ left: number; top: number } | null>(null)
  const { token } = theme.useToken()

  useLayoutEffect(() => {
    const el = ref.current
    if (!el) return
    setPos(place(at, { width: el.offsetWidth, height: el.offsetHeight }))
  }, [at, place])

  useEffect(() => {
    const close = (e: Event) => {
      if (ref.current && e.target instanceof Node && ref.current.contains(e.target)) return
      onClose()
    }
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose()
    // Not on 'scroll': the virtual list and tables fire scroll events by themselves when they re-render.
    document.addEventListener('mousedown', close, true)
    window.addEventListener('wheel', onClose, true)
    window.addEventListener('resize', onClose)
    document.addEventListener('keydown', onKey)
    return () => {
      document.removeEventListener('mousedown', close, true)
      window.removeEventListener('wheel', onClose, true)
      window.removeEventListener('resize', onClose)
      document.removeEventListener('keydown', onKey)
    }
  }, [onClose])

  return createPortal(
    <div
      ref={ref}
      data-testid={testId}
      style={{
        position: 'fixed',
        left: pos?.left ?? at.x,
        top: pos?.top ?? at.y,
        visibility: pos ? 'visible' : 'hidden',
        zIndex: 1050,
        width: ACTIONS_MENU_WIDTH,
        boxShadow: token.boxShadowSecondary,
        borderRadius: 8,
        background: token.colorBgElevated,
      }}
    >
      <Menu
        selectable={false}
        style={{ borderRadius: 8, borderInlineEnd: 'none' }}
        items={items}
        onClick={({ key }) => {
          onClose()
          onChoose(key)
        }}
      />
    </div>,
    document.body,
  )
}
