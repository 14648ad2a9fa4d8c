import { PlusOutlined } from '@ant-design/icons'
import { routes } from '@amg/contract'
import { Button } from 'antd'
import type { ReactNode } from 'react'
import { useNavigate } from 'react-router'
import { ExportButton } from '../../components/export-button'
import { ImportButton } from '../../components/import-button'
import { ListQueryBar } from '../../components/list-screen'
import { useCanCall } from '../../lib/can-call'
import { useDraft, type ListFilters } from '../../lib/list-state'

/**
 * The user list's search in the URL query (lib/list-state.ts): `keyword` (nickName, realName or
 * mobile), the department, and `nickName`, which links made before the keyword still carry.
 */
export const USER_LIST_FILTERS = { keyword: 'text', nickName: 'text', orgId: 'id' } as const
type UserListFilters = ListFilters<typeof USER_LIST_FILTERS>

/**
 * The user list's search bar and what stands beside it: 新建 (the prompt, or the full form), 导入,
 * 导出 of what the filters find, and the column settings handed in as `columns`.
 */
export function UserListToolbar({
  filters,
  setFilters,
  onCreate,
  onImported,
  columns,
}: {
  filters: UserListFilters
  setFilters: (next: Partial<UserListFilters>) => void
  onCreate: () => void
  onImported: () => void
  columns: ReactNode
}) {
  const navigate = useNavigate()
  const [keyword, setKeyword] = useDraft(filters.keyword || filters.nickName)
  const canAdd = useCanCall(routes.user.insert)
  return (
    <>
      <ListQueryBar
        placeholder="请输入用户昵称、姓名或手机号"
        label="用户昵称、姓名或手机号"
        value={keyword}
        onChange={setKeyword}
        onSearch={(text) => setFilters({ keyword: text, nickName: '' })}
        // 重置 also lifts the department filter
        onReset={() => setFilters({ keyword: '', nickName: '', orgId: undefined })}
      >
        {canAdd && (
          <>
            <Button type="primary" icon={<PlusOutlined />} onClick={onCreate}>
              新建
            </Button>
            <Button onClick={() => navigate('/usermanage/adduser')}>新建（填写详细信息）</Button>
          </>
        )}
        <ImportButton what="user" onImported={onImported} />
        <ExportButton
          route={routes.import.userExport}
          params={exportParams(filters)}
          fallbackName="用户.xlsx"
        />
        {columns}
      </ListQueryBar>
    </>
  )
}

/** The list's filters as the export's query (empty ones left out). */
function exportParams(filters: UserListFilters) {
  return {
    ...(filters.keyword ? { keyword: filters.keyword } : {}),
    ...(filters.nickName ? { nickName: filters.nickName } : {}),
    ...(filters.orgId != null ? { orgId: filters.orgId } : {}),
  }
}
