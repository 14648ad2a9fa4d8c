import { act, render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { PanelAreas, UndeclaredAreaError, parsePanelPath } from '../src/lib/panel-areas'
import { usePanelAreasHost, usePanelAreasState } from '../src/lib/panel-areas-context'

describe('panel areas (SPEC.md §2, §4)', () => {
  it('opening sets the view name and arguments and appends the area to the activated list', () => {
    const a = new PanelAreas(['left', 'right'])
    a.open('right', 'editform', { code: 'A1' })
    expect(a.getSnapshot().areas.right).toEqual({ view: 'editform', args: { code: 'A1' } })
    expect(a.getSnapshot().activated).toEqual(['right'])
  })

  it('is not appended again when it is already the latest entry', () => {
    const a = new PanelAreas(['left', 'right'])
    a.open('right', 'addform')
    a.open('right', 'editform', { code: 'B' })
    expect(a.getSnapshot().activated).toEqual(['right'])
    expect(a.view('right')).toEqual({ view: 'editform', args: { code: 'B' } })
  })

  it('is appended again when another area was opened after it', () => {
    const a = new PanelAreas(['left', 'right'])
    a.open('right', 'x')
    a.open('left', 'y')
    a.open('right', 'z')
    expect(a.getSnapshot().activated).toEqual(['right', 'left', 'right'])
  })

  it('the path is area-view, several joined by &', () => {
    const a = new PanelAreas(['left', 'right'])
    expect(a.getSnapshot().path).toBe('')
    a.open('left', 'tree')
    expect(a.getSnapshot().path).toBe('left-tree')
    a.open('right', 'editform')
    expect(a.getSnapshot().path).toBe('left-tree&right-editform')
  })

  it('a path can be parsed back and opened', () => {
    expect(parsePanelPath('left-tree&right-edit-form')).toEqual([
      ['left', 'tree'],
      ['right', 'edit-form'],
    ])
    const a = new PanelAreas(['left', 'right'])
    a.openPath('left-tree&right-editform')
    expect(a.getSnapshot().path).toBe('left-tree&right-editform')
  })

  it('an area id not among the declared areas is an error', () => {
    const a = new PanelAreas(['left'])
    expect(() => a.open('middle', 'x')).toThrow(UndeclaredAreaError)
    expect(() => a.clear('middle')).toThrow(UndeclaredAreaError)
    expect(() => a.openPath('middle-x')).toThrow(/not declared/)
  })

  it('clearing empties the view, sets the arguments to {} and removes the area', () => {
    const a = new PanelAreas(['left', 'right'])
    a.open('left', 'tree', { q: 1 })
    a.open('right', 'form', { id: 2 })
    a.clear('left')
    expect(a.view('left')).toEqual({ view: '', args: {} })
    expect(a.getSnapshot().activated).toEqual(['right'])
    expect(a.getSnapshot().path).toBe('right-form')
  })

  it('clearing without a name clears the latest', () => {
    const a = new PanelAreas(['left', 'right'])
    a.open('left', 'tree')
    a.open('right', 'form', { id: 2 })
    a.clear()
    expect(a.view('right')).toEqual({ view: '', args: {} })
    expect(a.view('left').view).toBe('tree')
    expect(a.getSnapshot().activated).toEqual(['left'])
    a.clear()
    a.clear() // nothing left: no error
    expect(a.getSnapshot().activated).toEqual([])
  })

  it('return clears the latest area', () => {
    const a = new PanelAreas(['left', 'right'])
    a.open('left', 'tree')
    a.open('right', 'form')
    expect(a.back()).toBe(true)
    expect(a.getSnapshot().activated).toEqual(['left'])
    expect(a.view('right').view).toBe('')
  })

  it('return does nothing when the host is a dialog', () => {
    const a = new PanelAreas(['body'], 'dialog')
    a.open('body', 'picker')
    expect(a.back()).toBe(false)
    expect(a.getSnapshot().activated).toEqual(['body'])
    expect(a.view('body').view).toBe('picker')
  })

  it('leaving the screen clears every area it opened', () => {
    function Host({ onAreas }: { onAreas: (a: PanelAreas) => void }) {
      const areas = usePanelAreasHost(['left', 'right'])
      const state = usePanelAreasState(areas)
      onAreas(areas)
      return <span data-testid="path">{state.path}</span>
    }
    let areas: PanelAreas | undefined
    const view = render(<Host onAreas={(a) => (areas = a)} />)
    act(() => {
      areas!.open('left', 'tree')
      areas!.open('right', 'form', { id: 1 })
    })
    expect(screen.getByTestId('path').textContent).toBe('left-tree&right-form')
    view.unmount()
    expect(areas!.getSnapshot().activated).toEqual([])
    expect(areas!.view('left')).toEqual({ view: '', args: {} })
    expect(areas!.view('right')).toEqual({ view: '', args: {} })
  })
})
