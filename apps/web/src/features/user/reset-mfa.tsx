import { Modal, Tag } from 'antd'
import { toastSuccess } from '../../lib/feedback'
import { mfaReset } from './api'

export const MFA_RESET_DONE = '已重置两步验证'

/** The user list's 两步验证 cell (DESIGN.md §14). */
export const MfaCell = ({ enabled }: { enabled?: boolean }) =>
  enabled ? <Tag color="success">已绑定</Tag> : <Tag>未绑定</Tag>

/**
 * 重置两步验证 of a row: for a user who lost their device. After a confirmation the server removes the
 * key and recovery codes (power and reach checked) and ends the user's sessions; they sign in with the
 * password alone and bind again (when the settings require it, at once).
 */
export function useResetMfa(onDone: () => void) {
  const [modal, holder] = Modal.useModal()
  const reset = (user: { id: number; nickName: string }) =>
    modal.confirm({
      title: `确定要重置用户 ${user.nickName} 的两步验证吗？`,
      content: '该用户的验证器密钥和恢复码将失效，已登录的会话也将结束；下次登录只需密码，之后可重新绑定。',
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        try {
          await mfaReset(user.id)
        } catch {
          return // the HTTP layer has shown why
        }
        toastSuccess(MFA_RESET_DONE)
        onDone()
      },
    })
  return { reset, holder }
}
