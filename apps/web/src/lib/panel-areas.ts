/**
 * Named panel areas (SPEC.md §2, §4). A screen declares the areas it hosts; opening an area sets
 * its view name and arguments and appends it to the activated list unless it is already the latest
 * entry; the path is `area-view` for every activated area, joined by '&'; clearing empties the view,
 * sets the arguments to {} and removes the area from the list (the latest when none is named);
 * return clears the latest area except when the host is a dialog; leaving the screen clears every
 * area it opened.
 */
export type PanelArgs = Record<string, unknown>

export interface PanelAreaState {
  view: string
  args: PanelArgs
}

export interface PanelAreasSnapshot {
  areas: Readonly<Record<string, PanelAreaState>>
  /** Activated area ids, oldest first. */
  activated: readonly string[]
  /** `area-view` pairs joined by '&'. */
  path: string
}

export type PanelHost = 'page' | 'dialog'

export class UndeclaredAreaError extends Error {
  constructor(id: string, declared: readonly string[]) {
    super(`view area '${id}' is not declared by its parent (declared: ${declared.join(', ') || 'none'})`)
    this.name = 'UndeclaredAreaError'
  }
}

export function panelPath(
  areas: Readonly<Record<string, PanelAreaState>>,
  activated: readonly string[],
): string {
  return activated.map((id) => `${id}-${areas[id]?.view ?? ''}`).join('&')
}

/** Parses a path 'a-view&b-other' into [areaId, view] pairs (the area id is before the first '-'). */
export function parsePanelPath(path: string): [string, string][] {
  return path
    .split('&')
    .filter((part) => part !== '')
    .map((part) => {
      const i = part.indexOf('-')
      return i < 0 ? [part, ''] : [part.slice(0, i), part.slice(i + 1)]
    })
}

export class PanelAreas {
  readonly declared: readonly string[]
  readonly host: PanelHost
  private areas: Record<string, PanelAreaState>
  private activated: string[] = []
  private snapshot: PanelAreasSnapshot
  private listeners = new Set<() => void>()

  constructor(declared: readonly string[], host: PanelHost = 'page') {
    this.declared = [...declared]
    this.host = host
    this.areas = Object.fromEntries(this.declared.map((id) => [id, { view: '', args: {} }]))
    this.snapshot = this.build()
  }

  private check(id: string) {
    if (!this.declared.includes(id)) throw new UndeclaredAreaError(id, this.declared)
  }

  private build(): PanelAreasSnapshot {
    return {
      areas: { ...this.areas },
      activated: [...this.activated],
      path: panelPath(this.areas, this.activated),
    }
  }

  private changed() {
    this.snapshot = this.build()
    this.listeners.forEach((l) => l())
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  getSnapshot = (): PanelAreasSnapshot => this.snapshot

  /** The view shown in an area ('' when empty). */
  view(id: string): PanelAreaState {
    this.check(id)
    return this.areas[id]
  }

  open(id: string, view: string, args: PanelArgs = {}) {
    this.check(id)
    this.areas[id] = { view, args }
    if (this.activated[this.activated.length - 1] !== id) this.activated.push(id)
    this.changed()
  }

  /** Clears the named area, or the latest activated one when none is named. */
  clear(id?: string) {
    const target = id ?? this.activated[this.activated.length - 1]
    if (target === undefined) return
    this.check(target)
    this.areas[target] = { view: '', args: {} }
    // remove the latest occurrence of the area from the activated list
    const i = this.activated.lastIndexOf(target)
    if (i >= 0) this.activated.splice(i, 1)
    this.changed()
  }

  /** The return action: clears the latest area, except inside a dialog. Answers whether it cleared. */
  back(): boolean {
    if (this.host === 'dialog' || this.activated.length === 0) return false
    this.clear()
    return true
  }

  /** Opens the areas a path names ('a-view&b-other'). */
  openPath(path: string) {
    for (const [id, view] of parsePanelPath(path)) this.open(id, view)
  }

  /** Leaving the screen: every area it opened is cleared. */
  clearAll() {
    if (this.activated.length === 0) return
    for (const id of this.declared) this.areas[id] = { view: '', args: {} }
    this.activated = []
    this.changed()
  }
}
