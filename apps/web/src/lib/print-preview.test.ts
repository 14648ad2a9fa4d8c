import { describe, expect, it, vi } from 'vitest'
import { PRINT_PREVIEW_Z_INDEX, openPrintPreview } from './print-preview'

describe('print preview (SPEC.md §9)', () => {
  it('opens an overlay at z-index 20002 with a copy of the content; prints and closes', () => {
    expect(PRINT_PREVIEW_Z_INDEX).toBe(20002)
    const source = document.createElement('p')
    source.textContent = '打印内容'
    const preview = openPrintPreview(source)
    const overlay = document.querySelector('.amg-print-preview') as HTMLElement
    expect(overlay).toBe(preview.element)
    expect(overlay.style.zIndex).toBe('20002')
    expect(overlay.style.position).toBe('fixed')
    expect(overlay.textContent).toContain('打印内容')
    const print = vi.spyOn(window, 'print').mockImplementation(() => {})
    ;(
      Array.from(overlay.querySelectorAll('button')).find(
        (b) => b.textContent === '打印',
      ) as HTMLButtonElement
    ).click()
    expect(print).toHaveBeenCalled()
    ;(
      Array.from(overlay.querySelectorAll('button')).find(
        (b) => b.textContent === '关闭',
      ) as HTMLButtonElement
    ).click()
    expect(document.querySelector('.amg-print-preview')).toBeNull()
  })
  it('takes HTML text and closes on Escape', () => {
    openPrintPreview('<b>报表</b>')
    expect(document.querySelector('.amg-print-preview b')!.textContent).toBe('报表')
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }))
    expect(document.querySelector('.amg-print-preview')).toBeNull()
  })
})
