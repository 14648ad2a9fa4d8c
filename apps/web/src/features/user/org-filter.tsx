import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons'
import { Button, Typography, theme } from 'antd'
import { OrgLevelTree } from '../../components/org-level-tree'
import { useOrgPath } from '../../components/org-picker-levels'

/**
 * The department tree beside the user list: choosing a department shows the users holding a position
 * in it or below it; 全部部门 lifts the filter. It folds away to a narrow strip; on a narrow screen it
 * sits above the list and starts folded.
 */
export function OrgFilter({
  orgId,
  onChange,
  folded,
  onFold,
  narrow,
}: {
  orgId: number | undefined
  onChange: (orgId: number | undefined) => void
  folded: boolean
  onFold: (folded: boolean) => void
  narrow: boolean
}) {
  const { token } = theme.useToken()
  const chosen = useOrgPath(orgId)
  const chosenName =
    orgId === undefined ? '全部部门' : (chosen.hit?.organizationName ?? (chosen.known ? '' : '未知部门'))

  const header = (
    <div style={{ display: 'flex', alignItems: 'center', gap: 8, marginBottom: folded ? 0 : 8 }}>
      <Button
        size="small"
        type="text"
        aria-label={folded ? '展开部门树' : '收起部门树'}
        icon={folded ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
        onClick={() => onFold(!folded)}
      />
      {!folded || narrow ? (
        <Typography.Text strong ellipsis style={{ flex: 1 }} data-testid="org-filter-current">
          部门：{chosenName}
        </Typography.Text>
      ) : null}
      {orgId !== undefined && (!folded || narrow) ? (
        <Button size="small" type="link" onClick={() => onChange(undefined)}>
          全部部门
        </Button>
      ) : null}
    </div>
  )

  return (
    <div
      data-testid="user-org-filter"
      style={{
        border: `1px solid ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadiusLG,
        padding: 8,
        width: narrow ? '100%' : folded ? 40 : 220,
        flex: 'none',
        marginBottom: narrow ? 12 : 0,
        alignSelf: 'flex-start',
      }}
    >
      {header}
      {folded ? null : (
        <div style={{ maxHeight: narrow ? 280 : 560, overflow: 'auto' }}>
          {/* the tree as the department screen's, under its own remembered open departments */}
          <OrgLevelTree
            storageKey="user-list-org"
            selectedId={orgId}
            treeProps={() => ({
              onSelect: (keys) => onChange(keys[0] === undefined ? undefined : Number(keys[0])),
            })}
          />
        </div>
      )}
    </div>
  )
}
