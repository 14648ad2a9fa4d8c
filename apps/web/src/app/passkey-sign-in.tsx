import { KeyOutlined } from '@ant-design/icons'
import { Button } from 'antd'
import { useEffect, useRef } from 'react'
import { toastError } from '../lib/feedback'
import {
  autofillSupported,
  browserProblem,
  cancelled,
  PasskeyBrowserError,
  passkeysSupported,
  signInWithPasskey,
} from '../lib/passkey'

export const PASSKEY_BUTTON = '使用通行密钥'

/** A passkey ceremony's failure told as a toast; a cancelled one is not an error. */
function tell(err: unknown) {
  // the server's refusals were shown by the HTTP layer; the browser's own (an IP address as rp id) here
  if (err instanceof PasskeyBrowserError && !cancelled(err.cause)) toastError(browserProblem(err.cause))
}

/**
 * 使用通行密钥 (DESIGN.md §23): the modal passkey prompt, alone or as the second step (`mfaToken`).
 * `onSignedIn` runs once the session is kept.
 */
export function PasskeyButton({
  mfaToken,
  busy,
  onStart,
  onSignedIn,
  onFailed,
  primary,
}: {
  mfaToken?: string
  busy: boolean
  onStart: () => void
  onSignedIn: () => void
  onFailed: () => void
  primary?: boolean
}) {
  if (!passkeysSupported()) return null
  const go = async () => {
    onStart()
    try {
      await signInWithPasskey({ mfaToken })
      onSignedIn()
    } catch (err) {
      tell(err)
      onFailed()
    }
  }
  return (
    <Button
      type={primary ? 'primary' : 'default'}
      size="large"
      block
      icon={<KeyOutlined />}
      loading={busy}
      onClick={() => void go()}
    >
      {PASSKEY_BUTTON}
    </Button>
  )
}

/**
 * Conditional UI: while the sign-in page shows, the browser offers the passkeys of this site among the
 * name box's suggestions; picking one signs in. Started once per page; the modal button aborts it.
 */
export function usePasskeyAutofill(enabled: boolean, onSignedIn: () => void) {
  const started = useRef(false)
  const signedIn = useRef(onSignedIn)
  signedIn.current = onSignedIn
  useEffect(() => {
    if (!enabled || started.current) return
    started.current = true
    void (async () => {
      if (!(await autofillSupported())) return
      try {
        await signInWithPasskey({ autofill: true })
        signedIn.current()
      } catch {
        // the suggestions were only offered, not asked for: a browser that cannot offer them (a page
        // reached by an IP address) or a ceremony ended by the button or a password sign-in is nothing
        // to tell; a refusal of the server's was told by the HTTP layer
      }
    })()
  }, [enabled])
}
