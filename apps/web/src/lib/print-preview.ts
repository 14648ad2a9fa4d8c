/** Print preview (SPEC.md §9): an overlay at z-index 20002 showing the content, with print and close. */
export const PRINT_PREVIEW_Z_INDEX = 20002

export interface PrintPreview {
  element: HTMLElement
  close: () => void
}

/**
 * Opens a print preview overlay holding a copy of `content` (an element or HTML text). Its
 * 打印 button prints the window, 关闭 (or Escape) removes the overlay.
 */
export function openPrintPreview(content: HTMLElement | string, title = '打印预览'): PrintPreview {
  const overlay = document.createElement('div')
  overlay.className = 'amg-print-preview'
  overlay.setAttribute('role', 'dialog')
  overlay.setAttribute('aria-label', title)
  Object.assign(overlay.style, {
    position: 'fixed',
    inset: '0',
    zIndex: String(PRINT_PREVIEW_Z_INDEX),
    background: 'rgba(0,0,0,0.45)',
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    overflow: 'auto',
    padding: '24px',
  })
  const bar = document.createElement('div')
  bar.className = 'amg-print-preview-bar'
  Object.assign(bar.style, { display: 'flex', gap: '8px', marginBottom: '12px' })
  const printButton = document.createElement('button')
  printButton.type = 'button'
  printButton.textContent = '打印'
  const closeButton = document.createElement('button')
  closeButton.type = 'button'
  closeButton.textContent = '关闭'
  bar.append(printButton, closeButton)
  const page = document.createElement('div')
  page.className = 'amg-print-preview-page'
  Object.assign(page.style, {
    background: '#fff',
    width: '210mm',
    minHeight: '297mm',
    padding: '16mm',
    boxSizing: 'border-box',
  })
  if (typeof content === 'string') page.innerHTML = content
  else page.appendChild(content.cloneNode(true))
  overlay.append(bar, page)

  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'Escape') close()
  }
  function close() {
    document.removeEventListener('keydown', onKey)
    overlay.remove()
  }
  printButton.addEventListener('click', () => window.print())
  closeButton.addEventListener('click', close)
  document.addEventListener('keydown', onKey)
  document.body.appendChild(overlay)
  return { element: overlay, close }
}
