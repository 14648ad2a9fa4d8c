import { MSG, isBlank } from '@amg/contract'
import { Form, Input, Typography } from 'antd'
import { FormDialog, useFormSubmit } from '../../components/form-dialog'
import { toastSuccess } from '../../lib/feedback'
import { useSession } from '../../lib/session-store'
import { insertUser } from './api'
import { NewUserPositions } from './new-user-positions'

/**
 * The user list's create prompt (SPEC.md §2): a nickName, which must not be blank ('用户昵称为空！').
 * The new user gets status 1 and the server's preset initial password, whose value is not shown. A
 * scoped administrator creates users only into a position within their scope (DESIGN.md §13), so for
 * them the prompt asks for one too, offering only positions in scope.
 */
export function CreateUserPrompt({
  open,
  onClose,
  onCreated,
}: {
  open: boolean
  onClose: () => void
  onCreated: () => Promise<unknown>
}) {
  const [form] = Form.useForm<{ nickName: string; positionIds?: number[] }>()
  const scoped = useSession((s) => s.user?.manageScope != null)
  const { saving, submit } = useFormSubmit(form, '新建用户', async (values) => {
    await insertUser({
      nickName: values.nickName.trim(),
      status: 1,
      ...(values.positionIds?.length ? { positionIds: values.positionIds } : {}),
    })
    toastSuccess(MSG.created)
    form.resetFields()
    await onCreated()
  })

  return (
    <FormDialog title="新建用户" open={open} saving={saving} onOk={submit} onClose={onClose}>
      <Typography.Paragraph type="secondary">
        请输入用户昵称。新用户状态为正常，以系统预设的初始密码登录，登录后会被提示修改密码；要设置其他密码，请用“新建（填写详细信息）”或创建后的“重置密码”。
      </Typography.Paragraph>
      <Form form={form} preserve={false} onFinish={() => void submit()}>
        <Form.Item
          name="nickName"
          rules={[
            {
              validator: async (_rule, value) => {
                if (isBlank(value)) throw new Error(MSG.nickNameBlank)
              },
            },
          ]}
        >
          <Input autoFocus placeholder="用户昵称" aria-label="新用户昵称" maxLength={64} />
        </Form.Item>
        {scoped && (
          <Form.Item
            name="positionIds"
            label="岗位"
            layout="vertical"
            extra="请选择您管理范围内的岗位，新用户将担任所选岗位"
            rules={[{ required: true, type: 'array', min: 1, message: MSG.positionRequiredInScope }]}
          >
            <NewUserPositions />
          </Form.Item>
        )}
      </Form>
    </FormDialog>
  )
}
