import { Checkbox, Flex, Input, Typography } from 'antd'
import { Button } from './button'

export interface PermissionTreeToolbarProps {
  search: string
  onSearch(text: string): void
  /** Read-only tree: only the search, the expansion and the count are offered. */
  readOnly?: boolean
  onCheckAll(): void
  onUncheckAll(): void
  onExpandAll(): void
  onCollapseAll(): void
  withSubtree: boolean
  onWithSubtree(on: boolean): void
  checkedCount: number
}

/** Above the role forms' permission tree: search, 全选/全不选, 展开/收起全部, the cascade choice, the count. */
export function PermissionTreeToolbar(p: PermissionTreeToolbarProps) {
  return (
    <Flex vertical gap={8} style={{ marginBottom: 8 }} data-testid="permission-tree-toolbar">
      <Input
        allowClear
        placeholder="搜索权限名称或编码"
        aria-label="搜索权限"
        value={p.search}
        onChange={(e) => p.onSearch(e.target.value)}
        style={{ maxWidth: 360 }}
      />
      <Flex wrap gap={8} align="center">
        {p.readOnly ? null : (
          <>
            <Button size="small" onClick={p.onCheckAll}>
              全选
            </Button>
            <Button size="small" onClick={p.onUncheckAll}>
              全不选
            </Button>
          </>
        )}
        <Button size="small" onClick={p.onExpandAll}>
          展开全部
        </Button>
        <Button size="small" onClick={p.onCollapseAll}>
          收起全部
        </Button>
        {p.readOnly ? null : (
          <Checkbox checked={p.withSubtree} onChange={(e) => p.onWithSubtree(e.target.checked)}>
            勾选时包含下级
          </Checkbox>
        )}
        <Typography.Text type="secondary" data-testid="permission-tree-count">
          已选 {p.checkedCount} 项
        </Typography.Text>
      </Flex>
    </Flex>
  )
}
