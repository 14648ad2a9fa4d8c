import { Button, Modal } from 'antd'
import type { CurrentUser } from '@amg/contract'
import type { ReactNode } from 'react'
import { useSession } from '../lib/session-store'
import { ChangePasswordDialog } from '../features/user/change-password-dialog'
import { MfaEnrolment } from '../features/user/mfa-enrolment'
import { PasskeyList } from '../features/user/passkey-card'

export const MFA_ENROL_TITLE = '请先绑定两步验证'
export const PASSKEY_ENROL_TITLE = '请先添加通行密钥'

/**
 * A restricted session (DESIGN.md §14): the server refuses everything but changing the password or
 * binding two-step sign-in, so the console shows only that, in a dialog that cannot be dismissed, and
 * a way out (退出登录). Done, the current user is read again and the console opens.
 */
export function RestrictedGate({ user }: { user: CurrentUser }) {
  const loadCurrentUser = useSession((s) => s.loadCurrentUser)
  const logout = useSession((s) => s.logout)
  return (
    <div style={{ minHeight: '100vh', display: 'flex', alignItems: 'flex-end', justifyContent: 'center' }}>
      {/* above the dialog's mask: the one way out besides finishing */}
      <Button
        type="link"
        style={{ marginBottom: 24, position: 'relative', zIndex: 2000 }}
        onClick={() => void logout()}
      >
        退出登录
      </Button>
      {user.restricted === 'password_change' ? (
        <ChangePasswordDialog open forced onClose={() => undefined} />
      ) : user.restricted === 'passkey_enroll' ? (
        // DESIGN.md §23: mfa admins-passkey, an administrator without a passkey
        <EnrolDialog title={PASSKEY_ENROL_TITLE} width={620}>
          <p>系统要求管理员使用通行密钥登录，添加后才能继续使用系统。</p>
          <PasskeyList onAdded={() => void loadCurrentUser()} />
        </EnrolDialog>
      ) : (
        <EnrolDialog title={MFA_ENROL_TITLE} width={520}>
          <p>系统要求您的账号使用两步验证，绑定后才能继续使用系统。</p>
          <MfaEnrolment onDone={() => void loadCurrentUser()} />
        </EnrolDialog>
      )}
    </div>
  )
}

/** A dialog of the gate: it stays open until what it asks for is done. */
function EnrolDialog({ title, width, children }: { title: string; width: number; children: ReactNode }) {
  return (
    <Modal
      title={title}
      open
      closable={false}
      keyboard={false}
      footer={null}
      mask={{ closable: false }}
      width={width}
    >
      {children}
    </Modal>
  )
}
