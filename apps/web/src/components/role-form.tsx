import { Form, Input, Space } from 'antd'
import { useState } from 'react'
import { antdRules } from '../lib/validation'
import { Button } from './button'
import { PermissionTreeChecker } from './permission-tree-checker'
import { RadioGroup } from './radio-group'
import {
  changesNoOne,
  fetchRoleImpact,
  RoleImpactDialog,
  samePermissionSet,
  type RoleImpactPreview,
} from './role-impact'
import { TextArea } from './text-area'

/** Role types (SPEC.md §3): 1 super admin, 2 built-in, 3 ordinary. */
export const ROLE_TYPE_LABEL: Record<number, string> = { 1: '超级管理员', 2: '内置角色', 3: '普通角色' }
/** The label of a role type: 1 超级管理员, 2 内置角色, otherwise 普通角色 (SPEC.md §2). */
export const roleTypeLabel = (type: number) => (type === 1 || type === 2 ? ROLE_TYPE_LABEL[type] : '普通角色')
export const ROLE_STATUS_LABEL: Record<number, string> = { 1: '启用', 2: '禁用' }

export const ADMIN_ROLE_TYPE_OPTIONS = [
  { label: '超级管理员', value: 1 },
  { label: '内置角色', value: 2 },
]
export const ROLE_STATUS_OPTIONS = [
  { label: '启用', value: 1 },
  { label: '禁用', value: 2 },
]

export interface RoleFormValues {
  roleName: string
  type?: number
  status?: number
  description?: string | null
  authCodes: string[]
}

export interface RoleFormProps {
  initialValues?: Partial<RoleFormValues>
  /** View mode (isDisable): every field and the tree read-only, no Save. */
  disabled?: boolean
  /** Show the type field (built-in roles: only when isShow). */
  showType?: boolean
  /** Show the status field (edit and view, not create). */
  showStatus?: boolean
  /** Show the Save button (hidden anyway when disabled). */
  showSave?: boolean
  saving?: boolean
  /**
   * The role being edited. A changed permission set is then previewed (POST /authz/role-impact)
   * and saved only once the impact is confirmed.
   */
  roleId?: number
  onSubmit?(values: RoleFormValues): void | Promise<void>
  onBack(): void
}

/**
 * The role form shared by the role and built-in role screens (SPEC.md §2, §5): role name
 * ('必须输入角色名称', checked on blur), type, status, description (3 to 5 rows) and the
 * permission tree with its check rules. Render it once the role is loaded: initialValues are read
 * at mount.
 */
export function RoleForm({
  initialValues,
  disabled = false,
  showType = false,
  showStatus = false,
  showSave = true,
  saving,
  roleId,
  onSubmit,
  onBack,
}: RoleFormProps) {
  const [form] = Form.useForm<RoleFormValues>()
  const [checking, setChecking] = useState(false)
  // the values waiting for the impact to be confirmed, and what the dialog shows
  const [pending, setPending] = useState<{ values: RoleFormValues; preview: RoleImpactPreview } | null>(null)

  const submit = async (values: RoleFormValues) => {
    const unchanged = samePermissionSet(initialValues?.authCodes ?? [], values.authCodes)
    if (roleId === undefined || unchanged) return onSubmit?.(values)
    setChecking(true)
    let preview: RoleImpactPreview
    try {
      const impact = await fetchRoleImpact(roleId, values.authCodes)
      if (changesNoOne(impact)) return onSubmit?.(values)
      preview = { impact }
    } catch (error) {
      preview = { error: error instanceof Error ? error.message : String(error) }
    } finally {
      setChecking(false)
    }
    setPending({ values, preview })
  }

  return (
    <Form<RoleFormValues>
      form={form}
      layout="horizontal"
      labelCol={{ flex: '110px' }}
      wrapperCol={{ flex: 'auto' }}
      style={{ maxWidth: 880 }}
      initialValues={{ authCodes: [], ...initialValues }}
      onFinish={(values) => submit({ ...values, authCodes: values.authCodes ?? [] })}
      onFinishFailed={(info) => console.warn('role form is invalid', info.errorFields)}
    >
      <Form.Item label="角色名称" name="roleName" rules={antdRules.roleName} validateTrigger="onBlur">
        <Input placeholder="请输入角色名称" maxLength={64} disabled={disabled} />
      </Form.Item>
      {showType ? (
        <Form.Item
          label="角色类型"
          name="type"
          rules={antdRules.roleType}
          validateTrigger={['onChange', 'onBlur']}
        >
          <RadioGroup options={ADMIN_ROLE_TYPE_OPTIONS} disabled={disabled} />
        </Form.Item>
      ) : null}
      {showStatus ? (
        <Form.Item
          label="启用状态"
          name="status"
          rules={antdRules.roleStatus}
          validateTrigger={['onChange', 'onBlur']}
        >
          <RadioGroup options={ROLE_STATUS_OPTIONS} disabled={disabled} />
        </Form.Item>
      ) : null}
      <Form.Item label="描述" name="description">
        <TextArea
          autoSize={{ minRows: 3, maxRows: 5 }}
          maxLength={500}
          placeholder="请输入描述"
          disabled={disabled}
        />
      </Form.Item>
      <Form.Item label="权限" name="authCodes">
        <PermissionTreeChecker disabled={disabled} />
      </Form.Item>
      <Form.Item label=" " colon={false}>
        <Space>
          {showSave && !disabled ? (
            <Button type="primary" htmlType="submit" loading={saving || checking}>
              保存
            </Button>
          ) : null}
          <Button onClick={onBack}>返回</Button>
        </Space>
      </Form.Item>
      <RoleImpactDialog
        preview={pending?.preview ?? null}
        onCancel={() => setPending(null)}
        onConfirm={() => {
          if (pending) void onSubmit?.(pending.values)
          setPending(null)
        }}
      />
    </Form>
  )
}
