import { Spin } from 'antd'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { MSG, ROLE_TYPE_LABEL, routes, type RoleType, type RouteData } from '@amg/contract'
import { useMemo } from 'react'
import { useNavigate, useSearchParams } from 'react-router'
import { useCanCall, type CallDescription } from '../lib/can-call'
import { toastSuccess } from '../lib/feedback'
import { useBackToList } from '../lib/list-state'
import { Screen } from '../lib/ui/screen'
import { RoleForm, type RoleFormValues } from './role-form'
import { RoleList, ROLES_QUERY_KEY, type RoleListRow } from './role-list'

/**
 * What tells the role screens (角色管理) and the built-in role screens (内置角色管理) apart
 * (SPEC.md §4, §9): their paths and titles, the types they list and may change, and their calls.
 */
export interface RoleScreensConfig {
  /** The list's path. */
  list: string
  /** The create and the edit/view screens' paths. */
  addPath: string
  infoPath: string
  /** Tells the two lists apart in the query cache and the page. */
  scope: string
  titles: { list: string; add: string; edit: string; view: string; info: string }
  /** The list's secondary line: which roles this screen manages, and which the other one does. */
  description: string
  /** The type filter's choices. */
  types: readonly RoleType[]
  /** The types sent when the type filter is empty (undefined: every type). */
  defaultTypes?: RoleType[]
  /** The types whose rows may be edited and deleted. */
  editableTypes: readonly RoleType[]
  /** The create form's first values; what it leaves out is sent as these. */
  newRole: RoleFormValues
  /**
   * What the `isShow` query shows: the Save button (ordinary roles; shown unless `isShow=false`) or
   * the type field (built-in roles; shown only with `isShow=true`).
   */
  isShow: 'save' | 'type'
  /** The calls of create, save and delete: a button shows only to a user who may make its call. */
  calls: { insert: CallDescription; update: CallDescription; remove: CallDescription }
  fetch(id: number): Promise<RouteData<typeof routes.role.detail>>
  insert(values: RoleFormValues): Promise<unknown>
  update(id: number, values: RoleFormValues): Promise<unknown>
  remove(id: number): Promise<unknown>
}

const withQuery = (path: string, query: Record<string, string | number | boolean>) =>
  `${path}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`

/** The RoleForm flag the `isShow` query sets. */
const isShowFlag = (config: RoleScreensConfig, isShow: string | null) =>
  config.isShow === 'save' ? { showSave: isShow !== 'false' } : { showType: isShow === 'true' }

/** A saved role: the toast, every role list refreshed, back to the list as it was left. */
function useAfterSave(config: RoleScreensConfig, message: string) {
  const queryClient = useQueryClient()
  const backToList = useBackToList(config.list)
  const onSuccess = async () => {
    toastSuccess(message)
    await queryClient.invalidateQueries({ queryKey: ROLES_QUERY_KEY })
    backToList()
  }
  return { backToList, onSuccess }
}

/** The role list screen (SPEC.md §2). */
export function RoleListScreen({ config }: { config: RoleScreensConfig }) {
  const navigate = useNavigate()
  const canAdd = useCanCall(config.calls.insert)
  const canEdit = useCanCall(config.calls.update)
  const canDelete = useCanCall(config.calls.remove)
  // kept while the config is: new filter choices would reset an open filter dropdown (role-list-columns.tsx)
  const typeFilters = useMemo(
    () => config.types.map((value) => ({ text: ROLE_TYPE_LABEL[value], value })),
    [config.types],
  )
  const info = (title: string, row: RoleListRow, isDisable: boolean, isShow: boolean) =>
    navigate(withQuery(config.infoPath, { title, isDisable, id: row.id, isShow }))
  return (
    <Screen title={config.titles.list} description={config.description}>
      <RoleList
        scope={config.scope}
        typeFilters={typeFilters}
        defaultTypes={config.defaultTypes}
        canModify={(row) => (config.editableTypes as readonly number[]).includes(row.type)}
        remove={canDelete ? (row) => config.remove(row.id) : undefined}
        onCreate={canAdd ? () => navigate(withQuery(config.addPath, { isShow: true })) : undefined}
        onEdit={canEdit ? (row) => info(config.titles.edit, row, false, true) : undefined}
        // viewing never saves: the link shows the type field where isShow means that
        onView={(row) => info(config.titles.view, row, true, config.isShow === 'type')}
      />
    </Screen>
  )
}

/** `infoPath?title=&isDisable=&id=&isShow=`: edit, or view read-only when isDisable. */
export function RoleInfoScreen({ config }: { config: RoleScreensConfig }) {
  const [params] = useSearchParams()
  const { backToList, onSuccess } = useAfterSave(config, MSG.updated)
  // a user who may not save sees the role as it is, whatever the address says
  const canEdit = useCanCall(config.calls.update)
  const id = Number(params.get('id'))
  const role = useQuery({
    queryKey: [...ROLES_QUERY_KEY, 'detail', id],
    queryFn: () => config.fetch(id),
    enabled: id > 0,
  })
  const save = useMutation({
    // the type field may be hidden: the role keeps its type then
    mutationFn: (values: RoleFormValues) => config.update(id, { type: role.data?.type, ...values }),
    onSuccess,
  })
  return (
    <Screen title={params.get('title') || config.titles.info}>
      {role.data ? (
        <RoleForm
          key={role.data.id}
          roleId={role.data.id}
          initialValues={role.data}
          disabled={!canEdit || params.get('isDisable') === 'true'}
          {...isShowFlag(config, canEdit ? params.get('isShow') : 'false')}
          showStatus
          saving={save.isPending}
          onSubmit={(values) => save.mutate(values)}
          onBack={backToList}
        />
      ) : (
        <Spin spinning={role.isPending && id > 0} />
      )}
    </Screen>
  )
}

/** `addPath?isShow=`: role name, description and permission tree (and the type, for built-in roles). */
export function RoleAddScreen({ config }: { config: RoleScreensConfig }) {
  const [params] = useSearchParams()
  const { backToList, onSuccess } = useAfterSave(config, MSG.created)
  const create = useMutation({
    mutationFn: (values: RoleFormValues) => config.insert({ ...config.newRole, ...values }),
    onSuccess,
  })
  return (
    <Screen title={config.titles.add}>
      <RoleForm
        initialValues={config.newRole}
        {...isShowFlag(config, params.get('isShow'))}
        saving={create.isPending}
        onSubmit={(values) => create.mutate(values)}
        onBack={backToList}
      />
    </Screen>
  )
}
