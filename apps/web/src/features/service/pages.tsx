import { MSG, confirmDeleteService, routes, type ServiceRow } from '@amg/contract'
import { Button, Tag, Tooltip, Typography, type TableColumnsType } from 'antd'
import { useState } from 'react'
import { DeleteLink, ListTable } from '../../components/list-screen'
import { FilterSearchBar } from '../../components/filter-search-bar'
import { useKeywordListScreen } from '../../components/keyword-list-screen'
import { useCanCall } from '../../lib/can-call'
import { Screen } from '../../lib/ui/screen'
import { SERVICE_LIST_KEY, deleteService, listServices } from './api'
import { ServiceFormDialog } from './service-form'
import { OidcDialog } from './oidc-dialog'
import { actionsColumn, formatTime } from '../../components/list-columns'

/**
 * 应用管理 (DESIGN.md §10a, §16): the services behind gateways, each owning the permission subtree of its
 * root; the built-in ams (this server) owns the rest and cannot be deleted.
 */
export function ServiceListPage() {
  const screen = useKeywordListScreen({
    queryKey: SERVICE_LIST_KEY,
    // a change of a service also changes the roots the form offers: all of 'service' is fetched again
    refreshKey: ['service'],
    fetch: listServices,
  })
  const { list, refresh, removeRow } = screen
  const [dialog, setDialog] = useState<{ editing?: ServiceRow } | null>(null)
  const canAdd = useCanCall(routes.service.insert)
  const canEdit = useCanCall(routes.service.update)
  const canDelete = useCanCall(routes.service.delete)
  const canOidc = useCanCall(routes.service.oidcSave)
  const [oidcOf, setOidcOf] = useState<ServiceRow | null>(null)

  const remove = (row: ServiceRow) => removeRow(() => deleteService(row.id))

  const columns: TableColumnsType<ServiceRow> = [
    {
      title: '服务标识',
      dataIndex: 'key',
      width: 180,
      render: (key: string) => <Typography.Text code>{key}</Typography.Text>,
    },
    { title: '服务名称', dataIndex: 'name', width: 200 },
    {
      title: '根权限',
      key: 'root',
      render: (_, row) =>
        row.rootCode === null ? (
          <Typography.Text type="secondary">不属于其他服务的全部权限</Typography.Text>
        ) : (
          <span>
            {row.rootName ?? ''} <Typography.Text type="secondary">（{row.rootCode}）</Typography.Text>
          </span>
        ),
    },
    {
      title: '内置',
      dataIndex: 'builtIn',
      width: 90,
      render: (builtIn: boolean) => (builtIn ? <Tag color="gold">内置</Tag> : <Tag>否</Tag>),
    },
    { title: '创建时间', dataIndex: 'createTime', width: 180, render: formatTime },
    actionsColumn<ServiceRow>(220, (row) => (
      <>
        {canEdit ? (
          <Button type="link" size="small" onClick={() => setDialog({ editing: row })}>
            修改
          </Button>
        ) : null}
        {canOidc && !row.builtIn ? (
          <Button type="link" size="small" onClick={() => setOidcOf(row)}>
            单点登录
          </Button>
        ) : null}
        {canDelete ? (
          row.builtIn ? (
            <Tooltip title={MSG.serviceBuiltIn}>
              <Button type="link" size="small" danger disabled>
                删除
              </Button>
            </Tooltip>
          ) : (
            <DeleteLink
              title={confirmDeleteService(row.name)}
              onConfirm={() => remove(row)}
              call={routes.service.delete}
              cancelNotice
            />
          )
        ) : null}
      </>
    )),
  ]

  return (
    <Screen title="应用管理">
      <Typography.Paragraph type="secondary">
        每个服务只认可其根权限之下的权限：网关询问 /api/authz/forward/&lt;服务标识&gt;
        时，只有该服务的权限参与判断。本系统自己的接口属于内置服务 ams。
      </Typography.Paragraph>
      <FilterSearchBar
        list={list}
        filter="keyword"
        placeholder="按服务标识或名称搜索"
        onAdd={canAdd ? () => setDialog({}) : undefined}
      />
      <ListTable<ServiceRow> screen={screen} columns={columns} scrollX={900} data-testid="service-table" />
      {oidcOf ? <OidcDialog service={oidcOf} onClose={() => setOidcOf(null)} /> : null}
      <ServiceFormDialog
        key={dialog?.editing?.id ?? 'new'}
        open={dialog !== null}
        editing={dialog?.editing}
        onClose={() => setDialog(null)}
        onSaved={async () => {
          setDialog(null)
          await refresh()
        }}
      />
    </Screen>
  )
}
