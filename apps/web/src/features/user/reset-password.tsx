import { CopyOutlined } from '@ant-design/icons'
import { Button, Input, Modal, Space, Typography, type InputRef } from 'antd'
import { useRef, useState } from 'react'
import { randomPassword } from '@amg/contract'
import { toastInfo, toastSuccess } from '../../lib/feedback'
import { resetUserPassword } from './api'
import { usePasswordPolicy } from '../../lib/password-policy'

/**
 * 重置密码 of a row: after a confirmation a random password the live policy accepts is set with
 * PUT /user/update, then shown once with a copy button. The user's sessions end (the server's rule
 * for a new password), and, as the security settings say by default, the user must change a password
 * an administrator set at the next sign-in (DESIGN.md §14).
 */
export function useResetPassword() {
  const [modal, modalHolder] = Modal.useModal()
  const [shown, setShown] = useState<{ nickName: string; password: string } | null>(null)
  const policy = usePasswordPolicy()

  const reset = (user: { id: number; nickName: string }) =>
    modal.confirm({
      title: `确定要重置用户 ${user.nickName} 的密码吗？`,
      content: '将生成一个随机密码，原密码随即失效，该用户已登录的会话也将结束。',
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        const password = randomPassword(policy, user.nickName)
        try {
          await resetUserPassword(user.id, password)
        } catch {
          return // the HTTP layer has shown why
        }
        setShown({ nickName: user.nickName, password })
      },
    })

  const holder = (
    <>
      {modalHolder}
      <NewPasswordDialog shown={shown} onClose={() => setShown(null)} />
    </>
  )
  return { reset, holder }
}

function NewPasswordDialog({
  shown,
  onClose,
}: {
  shown: { nickName: string; password: string } | null
  onClose: () => void
}) {
  const input = useRef<InputRef>(null)
  const copy = async () => {
    if (!shown) return
    try {
      await navigator.clipboard.writeText(shown.password)
      toastSuccess('已复制到剪贴板')
    } catch {
      // no clipboard (an insecure origin, a refused permission): select it for the user to copy
      input.current?.focus()
      input.current?.select()
      toastInfo('无法自动复制，密码已选中，请按 Ctrl+C 复制')
    }
  }
  return (
    <Modal
      title="密码已重置"
      open={shown !== null}
      onCancel={onClose}
      mask={{ closable: false }}
      footer={
        <Button type="primary" onClick={onClose}>
          关闭
        </Button>
      }
      destroyOnHidden
    >
      <Typography.Paragraph>用户 {shown?.nickName} 的新密码：</Typography.Paragraph>
      <Space.Compact style={{ width: '100%' }}>
        <Input
          ref={input}
          readOnly
          aria-label="新密码"
          data-testid="new-password"
          value={shown?.password ?? ''}
          style={{ fontFamily: 'monospace' }}
          onFocus={(e) => e.target.select()}
        />
        <Button icon={<CopyOutlined />} onClick={() => void copy()}>
          复制
        </Button>
      </Space.Compact>
      <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
        此密码只显示这一次，关闭后无法再次查看，请立即复制并告知该用户。
      </Typography.Paragraph>
    </Modal>
  )
}
