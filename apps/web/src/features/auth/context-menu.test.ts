import { describe, expect, it } from 'vitest'
import { contextMenuPosition, MENU_SHIFT_X, MENU_SHIFT_Y } from './context-menu'

const size = { width: 120, height: 130 }

describe('contextMenuPosition (SPEC.md §2: shifted when x > 1800 or y > 700)', () => {
  it('opens at the pointer when neither limit is passed', () => {
    expect(contextMenuPosition({ x: 300, y: 200 }, size)).toEqual({ left: 300, top: 200 })
  })

  it('is not shifted exactly at the limits (over, not at)', () => {
    expect(contextMenuPosition({ x: MENU_SHIFT_X, y: MENU_SHIFT_Y }, size)).toEqual({ left: 1800, top: 700 })
  })

  it('moves left by its width when x is over 1800', () => {
    expect(contextMenuPosition({ x: 1801, y: 200 }, size)).toEqual({ left: 1681, top: 200 })
  })

  it('moves up by its height when y is over 700', () => {
    expect(contextMenuPosition({ x: 300, y: 701 }, size)).toEqual({ left: 300, top: 571 })
  })

  it('moves both ways when both limits are passed', () => {
    expect(contextMenuPosition({ x: 1900, y: 900 }, size)).toEqual({ left: 1780, top: 770 })
  })

  it('uses the measured size', () => {
    expect(contextMenuPosition({ x: 2000, y: 800 }, { width: 0, height: 0 })).toEqual({
      left: 2000,
      top: 800,
    })
    expect(contextMenuPosition({ x: 2000, y: 800 }, { width: 200, height: 90 })).toEqual({
      left: 1800,
      top: 710,
    })
  })
})
