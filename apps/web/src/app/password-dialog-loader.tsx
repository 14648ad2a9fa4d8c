import { lazy, Suspense, useState } from 'react'

// The dialog, its form rules and antd's Modal load when the dialog is first opened: most sessions
// never open it, and the shell loads faster without them (DESIGN.md §12).
const ChangePasswordDialog = lazy(async () => ({
  default: (await import('../features/user/change-password-dialog')).ChangePasswordDialog,
}))

/** The change-password dialog of the header, loaded on its first opening and kept mounted after. */
export function PasswordDialogLoader({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [opened, setOpened] = useState(open)
  // adjusting state while rendering (React's documented pattern) rather than in an effect
  if (open && !opened) setOpened(true)
  if (!opened) return null
  return (
    <Suspense fallback={null}>
      <ChangePasswordDialog open={open} onClose={onClose} />
    </Suspense>
  )
}
