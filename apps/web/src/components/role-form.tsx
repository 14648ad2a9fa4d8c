import { Form, Input } from 'antd'
import { DATA_SCOPE, ROLE_TYPE, ROLE_TYPE_LABEL, STATUS, STATUS_LABEL } from '@amg/contract'
import { useState } from 'react'
import { antdRules, logInvalidForm } from '../lib/validation'
import { Button } from './button'
import { DataScopeFields } from './data-scope-fields'
import { RoleRequestFields } from './role-request-fields'
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
import { useFormLayout } from '../lib/ui/form-layout'
import { FormActions } from './form-actions'

/** The types the built-in role form offers. */
export const ADMIN_ROLE_TYPE_OPTIONS = [ROLE_TYPE.superAdmin, ROLE_TYPE.builtIn].map((value) => ({
  label: ROLE_TYPE_LABEL[value],
  value,
}))
export const ROLE_STATUS_OPTIONS = [STATUS.enabled, STATUS.disabled].map((value) => ({
  label: STATUS_LABEL[value],
  value,
}))

export interface RoleFormValues {
  roleName: string
  type?: number
  status?: number
  description?: string | null
  authCodes: string[]
  /** DESIGN.md §13: 1 全部数据 … 5 仅本人; a super-admin role always reaches all data */
  dataScope?: number
  /** the departments of 自定义部门 (2), each with everything below it */
  scopeOrgIds?: number[]
  /** DESIGN.md §20: 可申请, 审批人数, 审批角色 */
  requestable?: boolean
  requestApprovals?: number
  approverRoleIds?: number[]
}

/** The scope fields a role call sends: the departments only for 自定义部门. */
export const roleScopeBody = (v: RoleFormValues) => {
  const dataScope = v.dataScope ?? DATA_SCOPE.all
  return { dataScope, scopeOrgIds: dataScope === DATA_SCOPE.custom ? (v.scopeOrgIds ?? []) : [] }
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
  // a super-admin role reaches all data: no scope to choose
  const type = Form.useWatch('type', form)
  const layout = useFormLayout(110, true)
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
      {...layout}
      style={{ maxWidth: 880 }}
      initialValues={{
        authCodes: [],
        dataScope: DATA_SCOPE.all,
        scopeOrgIds: [],
        requestable: false,
        requestApprovals: 1,
        approverRoleIds: [],
        ...initialValues,
      }}
      onFinish={(values) => submit({ ...values, authCodes: values.authCodes ?? [] })}
      onFinishFailed={logInvalidForm('角色')}
    >
      <Form.Item label="角色名称" name="roleName" rules={antdRules.roleName} validateTrigger="onBlur">
        <Input placeholder="请输入角色名称" maxLength={64} disabled={disabled} />
      </Form.Item>
      {showType ? (
        <Form.Item
          label="角色类型"
          name="type"
          tooltip="超级管理员拥有全部权限，设定后不能修改或删除，只有超级管理员能设定；内置角色只有勾选的权限。"
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
      {type === ROLE_TYPE.superAdmin ? null : <DataScopeFields disabled={disabled} />}
      {type === ROLE_TYPE.superAdmin ? null : <RoleRequestFields disabled={disabled} roleId={roleId} />}
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
      <FormActions submit={showSave && !disabled ? '保存' : undefined} saving={saving || checking}>
        <Button onClick={onBack}>返回</Button>
      </FormActions>
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
