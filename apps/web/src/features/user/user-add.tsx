import { useQueryClient } from '@tanstack/react-query'
import { MSG } from '@amg/contract'
import { Button, Form, Input } from 'antd'
import { useState } from 'react'
import { toastSuccess } from '../../lib/feedback'
import { useBackToList } from '../../lib/list-state'
import { Screen } from '../../lib/ui/screen'
import { antdRules, logInvalidForm } from '../../lib/validation'
import { policyHint, policyRule, usePasswordPolicy } from '../../lib/password-policy'
import { useSession } from '../../lib/session-store'
import { insertUser } from './api'
import { NewUserPositions } from './new-user-positions'
import { USER_LIST_PATH } from './user-list'
import { useFormLayout } from '../../lib/ui/form-layout'
import { FormActions } from '../../components/form-actions'

interface AddUserValues {
  nickName: string
  realName?: string
  mobile?: string
  password?: string
  positionIds?: number[]
}

const blankToUndefined = (value?: string) => (value && value.trim() ? value.trim() : undefined)

/**
 * New user (/usermanage/adduser): the nickName, and optionally realName, mobile and a password
 * (the live policy's rules, DESIGN.md §14). Without a password the server sets its preset initial password. Status is 1.
 * 岗位: positions the new user holds at once; required for a scoped administrator (DESIGN.md §13).
 */
export function UserAddPage() {
  const backToList = useBackToList(USER_LIST_PATH)
  const queryClient = useQueryClient()
  const [form] = Form.useForm<AddUserValues>()
  const layout = useFormLayout(100)
  const [saving, setSaving] = useState(false)
  // DESIGN.md §13: a scoped administrator creates users only into a position within their scope
  const scoped = useSession((s) => s.user?.manageScope != null)
  const policy = usePasswordPolicy()

  const save = async (values: AddUserValues) => {
    setSaving(true)
    try {
      await insertUser({
        nickName: values.nickName.trim(),
        status: 1,
        realName: blankToUndefined(values.realName),
        mobile: blankToUndefined(values.mobile),
        password: values.password ? values.password : undefined,
        ...(values.positionIds?.length ? { positionIds: values.positionIds } : {}),
      })
      toastSuccess(MSG.created)
      await queryClient.invalidateQueries({ queryKey: ['users'] })
      backToList()
    } catch {
      // the error toast is already shown
    } finally {
      setSaving(false)
    }
  }

  return (
    <Screen title="新建用户">
      <Form<AddUserValues>
        form={form}
        {...layout}
        style={{ maxWidth: 560 }}
        onFinish={(values) => void save(values)}
        onFinishFailed={logInvalidForm('新建用户')}
      >
        <Form.Item label="用户昵称" name="nickName" rules={antdRules.nickName}>
          <Input placeholder="请输入用户昵称" maxLength={64} />
        </Form.Item>
        <Form.Item label="手机号" name="mobile" rules={antdRules.mobile}>
          <Input placeholder="请输入手机号" maxLength={11} />
        </Form.Item>
        <Form.Item label="真实姓名" name="realName" rules={antdRules.realName}>
          <Input placeholder="请输入真实姓名" maxLength={64} />
        </Form.Item>
        <Form.Item
          label="密码"
          name="password"
          dependencies={['nickName']}
          rules={[policyRule(policy, (values) => values.nickName as string | undefined)]}
          extra={`不填写时使用预设的初始密码；${policyHint(policy)}`}
        >
          <Input.Password placeholder="请输入密码" autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          label="岗位"
          name="positionIds"
          rules={
            scoped ? [{ required: true, type: 'array', min: 1, message: MSG.positionRequiredInScope }] : []
          }
          extra={scoped ? '请选择您管理范围内的岗位，新用户将担任所选岗位' : undefined}
        >
          <NewUserPositions />
        </Form.Item>
        <FormActions submit="保存" saving={saving}>
          <Button onClick={backToList}>返回</Button>
        </FormActions>
      </Form>
    </Screen>
  )
}
