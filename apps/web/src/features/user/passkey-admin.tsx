import { Modal } from 'antd'
import { useState } from 'react'
import { PasskeyList } from './passkey-card'

/**
 * 通行密钥 of a row (DESIGN.md §23): an administrator sees another user's passkeys and removes a lost
 * or stolen one (the server checks power and reach as for writing that user, and ends their sessions).
 */
export function usePasskeyAdmin() {
  const [user, setUser] = useState<{ id: number; nickName: string } | null>(null)
  const holder = (
    <Modal
      title={user ? `用户 ${user.nickName} 的通行密钥` : ''}
      open={!!user}
      footer={null}
      destroyOnHidden
      onCancel={() => setUser(null)}
      width={680}
    >
      {user ? <PasskeyList userId={user.id} /> : null}
    </Modal>
  )
  return { open: setUser, holder }
}
