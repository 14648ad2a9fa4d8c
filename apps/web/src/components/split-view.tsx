import { useEffect, useRef, type ReactNode } from 'react'
import { useSession } from '../lib/session-store'

/**
 * A tree beside its form (departments, permissions): side by side on a wide window; on a phone
 * stacked, the tree on top and the form below, both the full width. There, choosing another node
 * (`mainKey` changes) brings the form into view, since it opens under the tree, out of sight.
 */
export function SplitView({
  side,
  sideWidth,
  gutter = 24,
  mainKey,
  children,
}: {
  side: ReactNode
  /** the side column's width on a wide window */
  sideWidth: number
  gutter?: number
  /** what the main column shows (the route and its query): a change scrolls it into view on a phone */
  mainKey: string
  children: ReactNode
}) {
  const mobile = useSession((s) => s.device) === 'mobile'
  const main = useRef<HTMLDivElement>(null)
  const shownKey = useRef(mainKey)
  useEffect(() => {
    if (shownKey.current === mainKey) return
    shownKey.current = mainKey
    if (mobile) main.current?.scrollIntoView({ block: 'start' })
  }, [mainKey, mobile])

  // One element tree for both layouts, only its styles differ: a window crossing the phone width
  // (or a browser that reports a passing size while it captures the page) must not remount the
  // form beside the tree and lose what was typed in it.
  return (
    <div
      style={
        mobile ? { display: 'flex', flexDirection: 'column', gap: 16 } : { display: 'flex', gap: gutter }
      }
    >
      <div style={mobile ? { minWidth: 0 } : { flex: `0 0 ${sideWidth}px`, minWidth: 0 }}>{side}</div>
      <div style={mobile ? { minWidth: 0 } : { flex: '1 1 auto', minWidth: 0 }}>
        <div ref={main} style={{ scrollMarginTop: 8 }} data-testid="split-main">
          {children}
        </div>
      </div>
    </div>
  )
}
