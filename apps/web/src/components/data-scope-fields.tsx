import { Form, Select } from 'antd'
import { DATA_SCOPE, DATA_SCOPE_LABEL, DATA_SCOPE_VALUES, MSG } from '@amg/contract'
import { OrgCheckTree } from './org-check-tree'

/** 全部数据 … 仅本人, in the contract's order (DESIGN.md §13). */
export const DATA_SCOPE_OPTIONS = DATA_SCOPE_VALUES.map((value) => ({
  value,
  label: DATA_SCOPE_LABEL[value],
}))

const SCOPE_HELP =
  '角色的权限作用于哪些用户的数据：全部数据；自定义部门（所选部门及其下级）；本部门（持有者岗位所在部门）；' +
  '本部门及以下；仅本人。一个操作的范围是允许该操作的各角色范围之并。'

/**
 * The role form's 数据权限 and, for 自定义部门, its departments (DESIGN.md §13). The server checks
 * the same rules (a department that does not exist, none chosen, more reach than the caller's).
 */
export function DataScopeFields({ disabled }: { disabled?: boolean }) {
  const scope = Form.useWatch<number | undefined>('dataScope')
  return (
    <>
      <Form.Item label="数据权限" name="dataScope" tooltip={SCOPE_HELP}>
        <Select
          data-testid="data-scope-select"
          options={DATA_SCOPE_OPTIONS}
          disabled={disabled}
          style={{ maxWidth: 240 }}
        />
      </Form.Item>
      {scope === DATA_SCOPE.custom ? (
        <Form.Item
          label="自定义部门"
          name="scopeOrgIds"
          rules={[{ required: true, type: 'array', min: 1, message: MSG.scopeOrgIdsRequired }]}
        >
          {/* each chosen department counts with everything below it: chosen one by one, no cascade */}
          <OrgCheckTree disabled={disabled} testId="scope-org-tree" />
        </Form.Item>
      ) : null}
    </>
  )
}
