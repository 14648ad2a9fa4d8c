import { Button, Card, Descriptions, Form, Input, Modal, Space, Tag } from 'antd'
import { useState } from 'react'
import { toastSuccess } from '../../lib/feedback'
import { useSession } from '../../lib/session-store'
import { useDialogFor } from '../../lib/dialog-for'
import { Screen } from '../../lib/ui/screen'
import { FormDialog, useFormSubmit } from '../../components/form-dialog'
import { mfaDisable } from './api'
import { ChangePasswordDialog } from './change-password-dialog'
import { MfaEnrolment } from './mfa-enrolment'
import { PasskeyList } from './passkey-card'

export const MFA_UNBOUND = '两步验证已解绑'

/**
 * 个人中心 (DESIGN.md §14): one's own account — 修改密码, and 两步验证 (bind with the QR code and the
 * key, the recovery codes shown once; unbind with the password and a code).
 */
export function PersonalCenterPage() {
  const user = useSession((s) => s.user)!
  const loadCurrentUser = useSession((s) => s.loadCurrentUser)
  const [changing, setChanging] = useState(false)
  const binding = useDialogFor(loadCurrentUser)
  const unbinding = useDialogFor(loadCurrentUser)
  return (
    <Screen title="个人中心">
      <Space orientation="vertical" size="large" style={{ width: '100%' }}>
        <Card title="账号" size="small">
          <Descriptions column={1} size="small">
            <Descriptions.Item label="用户昵称">{user.nickName}</Descriptions.Item>
            <Descriptions.Item label="真实姓名">{user.realName ?? ''}</Descriptions.Item>
          </Descriptions>
          <Button onClick={() => setChanging(true)}>修改密码</Button>
        </Card>
        <Card title="两步验证" size="small">
          <p>
            状态：
            {user.mfaEnabled ? (
              <Tag color="success" data-testid="mfa-status">
                已绑定
              </Tag>
            ) : (
              <Tag data-testid="mfa-status">未绑定</Tag>
            )}
          </p>
          <p>登录时除密码外，还需输入身份验证器应用显示的 6 位验证码；手机丢失时可用恢复码登录。</p>
          {user.mfaEnabled ? (
            <Button danger onClick={() => unbinding.open(true)}>
              解绑
            </Button>
          ) : (
            <Button type="primary" onClick={() => binding.open(true)}>
              绑定
            </Button>
          )}
        </Card>
        {/* DESIGN.md §23 */}
        <Card title="通行密钥" size="small" data-testid="passkey-card">
          <p>通行密钥使用本设备的指纹、面容或锁屏密码登录，无需输入密码，也无法被钓鱼网站骗取。</p>
          <PasskeyList />
        </Card>
      </Space>
      <ChangePasswordDialog open={changing} onClose={() => setChanging(false)} />
      <Modal
        title="绑定两步验证"
        open={binding.isOpen}
        footer={null}
        destroyOnHidden
        mask={{ closable: false }}
        onCancel={binding.onClose}
        width={520}
      >
        <MfaEnrolment onDone={binding.onDone} />
      </Modal>
      <UnbindDialog open={unbinding.isOpen} onClose={unbinding.onClose} onDone={unbinding.onDone} />
    </Screen>
  )
}

function UnbindDialog({ open, onClose, onDone }: { open: boolean; onClose: () => void; onDone: () => void }) {
  const [form] = Form.useForm<{ password: string; code: string }>()
  const { saving, submit } = useFormSubmit(form, '解绑两步验证', async (values) => {
    await mfaDisable(values.password, values.code.replace(/\s+/g, ''))
    toastSuccess(MFA_UNBOUND)
    onDone()
  })
  return (
    <FormDialog
      title="解绑两步验证"
      open={open}
      okText="解绑"
      okButtonProps={{ danger: true }}
      saving={saving}
      onOk={submit}
      onClose={onClose}
    >
      <Form form={form} preserve={false} layout="vertical">
        <Form.Item label="密码" name="password" rules={[{ required: true, message: '请输入密码' }]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          label="验证码"
          name="code"
          rules={[{ required: true, pattern: /^\s*\d{6}\s*$/, message: '请输入 6 位验证码' }]}
        >
          <Input inputMode="numeric" autoComplete="one-time-code" maxLength={8} />
        </Form.Item>
      </Form>
    </FormDialog>
  )
}
