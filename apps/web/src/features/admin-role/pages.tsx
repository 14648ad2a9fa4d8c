import { Spin } from 'antd'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { MSG, ROLE_TYPE, ROLE_TYPE_LABEL } from '@amg/contract'
import { useNavigate, useSearchParams } from 'react-router'
import { RoleForm, type RoleFormValues } from '../../components/role-form'
import { RoleList, ROLES_QUERY_KEY, type RoleListRow } from '../../components/role-list'
import { toastSuccess } from '../../lib/feedback'
import { useBackToList } from '../../lib/list-state'
import { Screen } from '../../lib/ui/screen'
import { deleteAdminRole, fetchAdminRole, insertAdminRole, updateAdminRole } from './api'

const LIST = '/adminrolemanage'
const withQuery = (path: string, query: Record<string, string | number | boolean>) =>
  `${path}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`

/** SPEC.md §9: the built-in role list's type filter; empty means [1,2]. */
const DEFAULT_TYPES = [ROLE_TYPE.superAdmin, ROLE_TYPE.builtIn]
const TYPE_FILTERS = DEFAULT_TYPES.map((value) => ({ text: ROLE_TYPE_LABEL[value], value }))
/** SPEC.md §9: a new built-in role is type 2, status 1. */
const NEW_ROLE = { roleName: '', type: ROLE_TYPE.builtIn, status: 1, description: '', authCodes: [] }

/** SPEC.md §4: type 1 (super admin) is locked against edit and delete. */
const notSuperAdmin = (row: RoleListRow) => row.type !== ROLE_TYPE.superAdmin

export function AdminRoleListPage() {
  const navigate = useNavigate()
  return (
    <Screen title="内置角色管理">
      <RoleList
        scope="admin-role"
        typeFilters={TYPE_FILTERS}
        defaultTypes={DEFAULT_TYPES}
        canModify={notSuperAdmin}
        remove={(row) => deleteAdminRole(row.id)}
        onCreate={() => navigate(withQuery(`${LIST}/adminroleadd`, { isShow: true }))}
        onEdit={(row) =>
          navigate(
            withQuery(`${LIST}/adminroleinfo`, {
              title: '修改内置角色',
              isDisable: false,
              id: row.id,
              isShow: true,
            }),
          )
        }
        onView={(row) =>
          navigate(
            withQuery(`${LIST}/adminroleinfo`, {
              title: '查看内置角色',
              isDisable: true,
              id: row.id,
              isShow: true,
            }),
          )
        }
      />
    </Screen>
  )
}

/** /adminrolemanage/adminroleadd: name, type (only when isShow), description, permission tree. */
export function AdminRoleAddPage() {
  const [params] = useSearchParams()
  const backToList = useBackToList(LIST)
  const queryClient = useQueryClient()
  const create = useMutation({
    mutationFn: (values: RoleFormValues) => insertAdminRole({ ...NEW_ROLE, ...values }),
    onSuccess: async () => {
      toastSuccess(MSG.created)
      await queryClient.invalidateQueries({ queryKey: ROLES_QUERY_KEY })
      backToList()
    },
  })
  return (
    <Screen title="新建内置角色">
      <RoleForm
        initialValues={NEW_ROLE}
        showType={params.get('isShow') === 'true'}
        saving={create.isPending}
        onSubmit={(values) => create.mutate(values)}
        onBack={backToList}
      />
    </Screen>
  )
}

/** /adminrolemanage/adminroleinfo?title=&id=&isDisable=&isShow=: edit, or view read-only. */
export function AdminRoleInfoPage() {
  const [params] = useSearchParams()
  const backToList = useBackToList(LIST)
  const queryClient = useQueryClient()
  const id = Number(params.get('id'))
  const isDisable = params.get('isDisable') === 'true'
  const role = useQuery({
    queryKey: [...ROLES_QUERY_KEY, 'detail', id],
    queryFn: () => fetchAdminRole(id),
    enabled: id > 0,
  })
  const save = useMutation({
    // the type field may be hidden (isShow unset): the role keeps its type then
    mutationFn: (values: RoleFormValues) => updateAdminRole(id, { type: role.data?.type, ...values }),
    onSuccess: async () => {
      toastSuccess(MSG.updated)
      await queryClient.invalidateQueries({ queryKey: ROLES_QUERY_KEY })
      backToList()
    },
  })
  return (
    <Screen title={params.get('title') || '内置角色信息'}>
      {role.data ? (
        <RoleForm
          key={role.data.id}
          roleId={role.data.id}
          initialValues={role.data}
          disabled={isDisable}
          showType={params.get('isShow') === 'true'}
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
