import type { ComponentType } from 'react'

export interface ViewAreaProps {
  /** The area's name (the id a screen declares). */
  name: string
  /** The views that may be shown in this area, by view name. */
  views: Record<string, ComponentType<any>>
  /** The view currently opened in the area ('' or undefined: empty). */
  view?: string | null
  /** Arguments passed to the view as props. */
  args?: Record<string, unknown>
  /** Shown when no view is open. */
  fallback?: React.ReactNode
}

/** A named region rendering the view registered for it (the area state lives in lib/panel-areas). */
export function ViewArea({ name, views, view, args, fallback = null }: ViewAreaProps) {
  const View = view ? views[view] : undefined
  return (
    <div className="amg-view-area" data-view-area={name} data-view={view || undefined}>
      {View ? <View {...(args ?? {})} /> : fallback}
    </div>
  )
}
