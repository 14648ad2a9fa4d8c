import { createContext, useContext, useEffect, useState, useSyncExternalStore } from 'react'
import type { ReactNode } from 'react'
import { PanelAreas, type PanelAreasSnapshot, type PanelHost } from './panel-areas'

const PanelAreasContext = createContext<PanelAreas | null>(null)

/**
 * A screen's panel areas: created once for the screen and cleared when the screen is left
 * (SPEC.md §2: while a screen is being left, the panel areas it opened are cleared).
 */
export function usePanelAreasHost(declared: readonly string[], host: PanelHost = 'page'): PanelAreas {
  const [areas] = useState(() => new PanelAreas(declared, host))
  useEffect(() => () => areas.clearAll(), [areas])
  return areas
}

export function PanelAreasProvider({ areas, children }: { areas: PanelAreas; children: ReactNode }) {
  return <PanelAreasContext.Provider value={areas}>{children}</PanelAreasContext.Provider>
}

/** The nearest screen's panel areas (null outside a host). */
export function usePanelAreas(): PanelAreas | null {
  return useContext(PanelAreasContext)
}

/** Re-renders on every change of the given areas. */
export function usePanelAreasState(areas: PanelAreas): PanelAreasSnapshot {
  return useSyncExternalStore(areas.subscribe, areas.getSnapshot, areas.getSnapshot)
}
