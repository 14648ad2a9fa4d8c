import { useQuery } from '@tanstack/react-query'
import { Form, Select, Switch } from 'antd'
import { routes } from '@amg/contract'
import { request } from '../lib/route-call'
import { RadioGroup } from './radio-group'

const APPROVALS = [
  { label: '1 人', value: 1 },
  { label: '2 人（两位不同的审批人）', value: 2 },
]

/**
 * The role form's 可申请, 审批人数 and 审批角色 (DESIGN.md §20). The approver roles are picked from the
 * role list this screen already reads; an approver must also be able to grant the role themselves.
 */
export function RoleRequestFields({ disabled, roleId }: { disabled?: boolean; roleId?: number }) {
  const requestable = Form.useWatch<boolean | undefined>('requestable')
  const roles = useQuery({
    queryKey: ['role', 'approver-options'],
    queryFn: () => request(routes.role.list, { body: { pageNum: 1, pageSize: 1000 } }),
    enabled: !!requestable,
  })
  const options = (roles.data?.list ?? [])
    .filter((r) => r.id !== roleId)
    .map((r) => ({ label: r.roleName, value: r.id }))
  return (
    <>
      <Form.Item
        label="可申请"
        name="requestable"
        valuePropName="checked"
        tooltip="用户可在“我的权限”中申请此角色，经审批后获得"
      >
        <Switch disabled={disabled} data-testid="role-requestable" />
      </Form.Item>
      {requestable ? (
        <>
          <Form.Item label="审批人数" name="requestApprovals">
            <RadioGroup options={APPROVALS} disabled={disabled} />
          </Form.Item>
          <Form.Item
            label="审批角色"
            name="approverRoleIds"
            tooltip="不选：能授予此角色的审批人均可审批；选择后审批人还须持有其中一个角色"
          >
            <Select
              mode="multiple"
              allowClear
              options={options}
              loading={roles.isLoading}
              disabled={disabled}
              placeholder="任何能授予此角色的审批人"
              optionFilterProp="label"
              style={{ maxWidth: 480 }}
            />
          </Form.Item>
        </>
      ) : null}
    </>
  )
}
