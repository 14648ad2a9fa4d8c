import { useState } from 'react'

/** A dialog's state and the handlers it is given. */
export interface DialogFor<T> {
  /** what the dialog is open for (null: closed) */
  target: T | null
  isOpen: boolean
  open: (target: T) => void
  /** closes it, nothing done */
  onClose: () => void
  /** closes it once it has done its work, then runs the page's `afterDone` */
  onDone: () => void
}

/**
 * A dialog opened for one thing (a row; `true` for a dialog about nothing in particular). When it is
 * done it closes and `afterDone` fetches again what it changed.
 */
export function useDialogFor<T = true>(afterDone: () => unknown): DialogFor<T> {
  const [target, setTarget] = useState<T | null>(null)
  return {
    target,
    isOpen: target !== null,
    open: setTarget,
    onClose: () => setTarget(null),
    onDone: () => {
      setTarget(null)
      void afterDone()
    },
  }
}
