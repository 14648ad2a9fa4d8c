import { useQuery, useQueryClient } from '@tanstack/react-query'
import { MSG, routes, type UserDetail } from '@amg/contract'
import { Button, Form, Input, Select, Spin, Typography } from 'antd'
import { useEffect, useState } from 'react'
import { useSearchParams } from 'react-router'
import { useCanCall } from '../../lib/can-call'
import { toastSuccess } from '../../lib/feedback'
import { useBackToList } from '../../lib/list-state'
import { useSession } from '../../lib/session-store'
import { antdRules, logInvalidForm } from '../../lib/validation'
import { policyHint, policyRule, usePasswordPolicy } from '../../lib/password-policy'
import { updateUser, userDetail } from './api'
import { ChangePasswordDialog } from './change-password-dialog'
import { MissingUser, TabHeading, USER_STATUS_OPTIONS, useUserIdParam } from './common'
import { USER_LIST_PATH } from './user-list'
import { useFormLayout } from '../../lib/ui/form-layout'
import { FormActions } from '../../components/form-actions'

interface BaseInfoValues {
  nickName: string
  mobile?: string | null
  realName?: string | null
  password?: string
  status?: number | null
}

const orNull = (value?: string | null) => (value && value.trim() ? value.trim() : null)

/** Shown instead of the password field on one's own base info (DESIGN.md §6a). */
export const OWN_PASSWORD_HINT = '修改自己的密码需要输入原密码，请使用'

/**
 * Base info tab (SPEC.md §2, §5): nickName, mobile and realName (only when isShow is set), password
 * (optional; left empty it stays unchanged) and status. Save answers '修改成功'; Back goes to /usermanage as it was left.
 * On one's own base info there is no password field: the server refuses it there (a stolen session must
 * not take the account over), and the tab offers 修改密码, which asks for the old password.
 */
export function UserBaseInfoTab() {
  const userId = useUserIdParam()
  const [params] = useSearchParams()
  const isShow = !!params.get('isShow')
  const backToList = useBackToList(USER_LIST_PATH)
  const queryClient = useQueryClient()
  const me = useSession((s) => s.user)
  const loadCurrentUser = useSession((s) => s.loadCurrentUser)
  const [form] = Form.useForm<BaseInfoValues>()
  const layout = useFormLayout(100)
  const [saving, setSaving] = useState(false)
  const [changingOwnPassword, setChangingOwnPassword] = useState(false)
  const self = me !== null && me.id === userId
  // a user who may not save sees the record as it is: no password field, no 保存
  const mayUpdate = useCanCall(routes.user.update)
  const policy = usePasswordPolicy()

  const detail = useQuery({
    queryKey: ['user', 'detail', userId],
    queryFn: () => userDetail(userId!),
    enabled: userId !== null,
  })
  // nor one the server will not let change this user (outside their scope, or stronger than them)
  const canSave = mayUpdate && detail.data?.writable !== false
  // DESIGN.md §22: a directory user's name, fields and password are the directory's to change
  const fromDirectory = detail.data?.source === 'ldap'
  // `undefined`, not `false`: a field's own `disabled={false}` would undo the form's read-only state
  const directoryField = fromDirectory ? true : undefined

  useEffect(() => {
    if (detail.data) form.setFieldsValue({ ...toValues(detail.data), password: '' })
  }, [detail.data, form])

  if (userId === null) return <MissingUser />

  const save = async (values: BaseInfoValues) => {
    const current = detail.data
    if (!current) return
    setSaving(true)
    try {
      await updateUser({
        id: userId,
        nickName: values.nickName.trim(),
        // hidden fields keep what the user has
        mobile: isShow ? orNull(values.mobile) : current.mobile,
        realName: isShow ? orNull(values.realName) : current.realName,
        password: !self && values.password ? values.password : undefined,
        status: values.status!,
      })
      toastSuccess(MSG.updated)
      form.setFieldValue('password', '')
      await queryClient.invalidateQueries({ queryKey: ['users'] })
      await queryClient.invalidateQueries({ queryKey: ['user', 'detail', userId] })
      if (me && me.id === userId) await loadCurrentUser()
    } catch {
      // the error toast is already shown
    } finally {
      setSaving(false)
    }
  }

  return (
    <div>
      <TabHeading>基本信息</TabHeading>
      <Spin spinning={detail.isFetching}>
        <Form<BaseInfoValues>
          form={form}
          {...layout}
          style={{ maxWidth: 560 }}
          disabled={!canSave}
          onFinish={(values) => void save(values)}
          onFinishFailed={logInvalidForm('用户基本信息')}
        >
          <Form.Item label="用户昵称" name="nickName" rules={antdRules.nickName}>
            <Input placeholder="请输入用户昵称" maxLength={64} disabled={directoryField} />
          </Form.Item>
          {isShow && (
            <Form.Item label="手机号" name="mobile" rules={antdRules.mobile}>
              <Input placeholder="请输入手机号" maxLength={11} disabled={directoryField} />
            </Form.Item>
          )}
          {isShow && (
            <Form.Item label="真实姓名" name="realName" rules={antdRules.realName}>
              <Input placeholder="请输入真实姓名" maxLength={64} disabled={directoryField} />
            </Form.Item>
          )}
          {self ? (
            <Form.Item label="密码">
              <Typography.Text type="secondary">{OWN_PASSWORD_HINT}</Typography.Text>
              <Button type="link" disabled={false} onClick={() => setChangingOwnPassword(true)}>
                修改密码
              </Button>
            </Form.Item>
          ) : fromDirectory ? (
            <Form.Item label="密码">
              <Typography.Text type="secondary" data-testid="directory-user-note">
                来自目录（LDAP）：登录名、姓名、手机号和密码在目录中修改
              </Typography.Text>
            </Form.Item>
          ) : (
            canSave && (
              <Form.Item
                label="密码"
                name="password"
                dependencies={['nickName']}
                rules={[policyRule(policy, (values) => values.nickName as string | undefined)]}
                extra={`不修改密码请留空；${policyHint(policy)}`}
              >
                <Input.Password placeholder="请输入新密码" autoComplete="new-password" />
              </Form.Item>
            )
          )}
          <Form.Item label="状态" name="status" rules={antdRules.userStatus}>
            <Select
              allowClear
              placeholder="请选择状态"
              options={USER_STATUS_OPTIONS}
              style={{ width: '100%', maxWidth: 200 }}
            />
          </Form.Item>
          <FormActions submit={canSave ? '保存' : undefined} saving={saving} submitDisabled={!detail.data}>
            <Button disabled={false} onClick={backToList}>
              返回
            </Button>
          </FormActions>
        </Form>
      </Spin>
      {self && (
        <ChangePasswordDialog open={changingOwnPassword} onClose={() => setChangingOwnPassword(false)} />
      )}
    </div>
  )
}

function toValues(user: UserDetail): BaseInfoValues {
  return {
    nickName: user.nickName,
    mobile: user.mobile ?? '',
    realName: user.realName ?? '',
    status: user.status,
  }
}
