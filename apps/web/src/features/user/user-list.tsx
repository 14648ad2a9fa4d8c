import { routes, type UserListRow } from '@amg/contract'
import { Grid, Table } from 'antd'
import { useCallback, useState } from 'react'
import { Pagination } from '../../components'
import { useListScreen } from '../../components/list-screen'
import { useCanCall } from '../../lib/can-call'
import { useSession } from '../../lib/session-store'
import { Screen } from '../../lib/ui/screen'
import { listUsers } from './api'
import { BatchActions, useBatchPermissions } from './batch-actions'
import { useUserColumns } from './column-settings'
import { CreateUserPrompt } from './create-user-prompt'
import { OrgFilter } from './org-filter'
import { useStatusSwitch } from './status-switch'
import { ColumnSettings, SELECTION_WIDTH, UserRowDetails, userColumns } from './user-list-columns'
import { USER_LIST_FILTERS, UserListToolbar } from './user-list-toolbar'
import { useUserRowActions } from './user-row-actions'

export { confirmDeleteUser, userInfoUrl } from './user-row-actions'
export const USER_LIST_PATH = '/usermanage'

/**
 * User list (SPEC.md §2 and the additions of decisions.md "The user list"): a keyword search, a
 * department tree, create, a table of nickName, the 列设置 columns (姓名, 手机号, 部门/岗位, 角色, and
 * after the status 两步验证, createTime and updateTime), a status switch, edit, 重置密码 and delete,
 * batch actions on selected rows.
 */
export function UserListPage() {
  const me = useSession((s) => s.user)
  const narrow = Grid.useBreakpoint().md === false
  const screen = useListScreen({
    filters: USER_LIST_FILTERS,
    queryKey: ['users'],
    fetch: ({ filters, pageNum, pageSize }) =>
      listUsers({
        keyword: filters.keyword,
        nickName: filters.nickName,
        orgId: filters.orgId,
        pageNum,
        pageSize,
      }),
  })
  const { list, refresh } = screen
  const [creating, setCreating] = useState(false)
  const [foldedChoice, setFolded] = useState<boolean | null>(null)
  const folded = foldedChoice ?? narrow
  const columnsShown = useUserColumns()
  const [selected, setSelected] = useState<Map<number, UserListRow>>(new Map())
  // the department filter reads the department tree
  const canReadOrgs = useCanCall(routes.org.tree)
  const batch = useBatchPermissions()
  // editing a row and the batch's 冻结/启用 make the same calls
  const canEdit = batch.edit
  const statusSwitch = useStatusSwitch(me?.id, refresh, canEdit)
  const onImported = useCallback(() => void refresh(), [refresh])
  const rowActions = useUserRowActions({
    meId: me?.id,
    canEdit,
    narrow,
    refresh,
    removeRow: screen.removeRow,
  })

  const table = userColumns({
    shown: columnsShown.shown,
    narrow,
    status: (row) => statusSwitch.render(row),
    actions: rowActions.render,
    actionsWidth: rowActions.width,
  })
  const selectionWidth = narrow ? 32 : SELECTION_WIDTH
  const scrollX = table.width + (batch.any ? selectionWidth : 0) + (narrow ? 32 : 0)
  const selectedRows = [...selected.values()]

  return (
    <Screen title="用户管理">
      {statusSwitch.holder}
      {rowActions.holder}
      <div style={{ display: 'flex', flexDirection: narrow ? 'column' : 'row', gap: narrow ? 0 : 16 }}>
        {canReadOrgs && (
          <OrgFilter
            orgId={list.filters.orgId}
            onChange={(orgId) => list.setFilters({ orgId })}
            folded={folded}
            onFold={setFolded}
            narrow={narrow}
          />
        )}
        <div style={{ flex: 1, minWidth: 0 }}>
          <UserListToolbar
            filters={list.filters}
            setFilters={list.setFilters}
            onCreate={() => setCreating(true)}
            onImported={onImported}
            // a phone shows the other columns in each row's expansion
            columns={
              narrow ? null : <ColumnSettings shown={columnsShown.shown} onChange={columnsShown.change} />
            }
          />
          {selectedRows.length ? (
            <BatchActions
              selected={selectedRows}
              meId={me?.id}
              onClear={() => setSelected(new Map())}
              onDone={refresh}
            />
          ) : null}
          <Table<UserListRow>
            rowKey="id"
            size="middle"
            data-testid="user-table"
            columns={table.columns}
            dataSource={screen.rows}
            loading={screen.loading}
            pagination={false}
            scroll={{ x: scrollX }}
            // on a phone the hidden columns open under the row
            expandable={
              narrow
                ? { columnWidth: 32, expandedRowRender: (row) => <UserRowDetails row={row} /> }
                : undefined
            }
            rowSelection={
              batch.any
                ? {
                    columnWidth: selectionWidth,
                    preserveSelectedRowKeys: true,
                    selectedRowKeys: [...selected.keys()],
                    getTitleCheckboxProps: () => ({ 'aria-label': '全选本页' }),
                    getCheckboxProps: (row) => ({
                      'aria-label': `选择 ${row.nickName}`,
                      // the batch's every action changes the users chosen
                      disabled: row.writable === false,
                    }),
                    onChange: (keys, rows) =>
                      setSelected(
                        new Map(
                          keys.flatMap((key) => {
                            const row = rows.find((r) => r?.id === key) ?? selected.get(Number(key))
                            return row ? [[row.id, row] as const] : []
                          }),
                        ),
                      ),
                  }
                : undefined
            }
          />
          <div style={{ marginTop: 16, display: 'flex', justifyContent: 'flex-end' }}>
            <Pagination
              total={screen.page?.total ?? 0}
              estimated={screen.page?.totalIsEstimate}
              current={list.pageNum}
              pageSize={list.pageSize}
              pageSizes={screen.pageSizes}
              onChange={(pageNum, pageSize) => list.setPage(pageNum, pageSize)}
            />
          </div>
        </div>
      </div>
      <CreateUserPrompt
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={async () => {
          setCreating(false)
          list.setPage(1)
          await refresh()
        }}
      />
    </Screen>
  )
}
