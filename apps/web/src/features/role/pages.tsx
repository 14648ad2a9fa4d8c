import { Spin } from 'antd'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { MSG, ROLE_TYPE, ROLE_TYPE_LABEL } from '@amg/contract'
import { useNavigate, useSearchParams } from 'react-router'
import { RoleForm, type RoleFormValues } from '../../components/role-form'
import { RoleList, ROLES_QUERY_KEY, type RoleListRow } from '../../components/role-list'
import { toastSuccess } from '../../lib/feedback'
import { useBackToList } from '../../lib/list-state'
import { Screen } from '../../lib/ui/screen'
import { deleteRole, fetchRole, insertRole, updateRole } from './api'

const LIST = '/rolemanage'
const withQuery = (path: string, query: Record<string, string | number | boolean>) =>
  `${path}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`

/** Type filter of the role list: every type (SPEC.md §3). */
const TYPE_FILTERS = Object.values(ROLE_TYPE).map((value) => ({ text: ROLE_TYPE_LABEL[value], value }))

/** SPEC.md §4: only type 3 (ordinary) roles are editable in the ordinary role list. */
const isOrdinary = (row: RoleListRow) => row.type === ROLE_TYPE.ordinary

export function RoleListPage() {
  const navigate = useNavigate()
  return (
    <Screen title="角色管理">
      <RoleList
        scope="role"
        typeFilters={TYPE_FILTERS}
        canModify={isOrdinary}
        remove={(row) => deleteRole(row.id)}
        onCreate={() => navigate(withQuery(`${LIST}/addrole`, { isShow: true }))}
        onEdit={(row) =>
          navigate(
            withQuery(`${LIST}/roleinfo`, { title: '修改角色', isDisable: false, id: row.id, isShow: true }),
          )
        }
        onView={(row) =>
          navigate(
            withQuery(`${LIST}/roleinfo`, { title: '查看角色', isDisable: true, id: row.id, isShow: false }),
          )
        }
      />
    </Screen>
  )
}

/** /rolemanage/roleinfo?title=&isDisable=&id=&isShow=: edit, or view read-only when isDisable. */
export function RoleInfoPage() {
  const [params] = useSearchParams()
  const backToList = useBackToList(LIST)
  const queryClient = useQueryClient()
  const id = Number(params.get('id'))
  const isDisable = params.get('isDisable') === 'true'
  const isShow = params.get('isShow') !== 'false'
  const role = useQuery({
    queryKey: [...ROLES_QUERY_KEY, 'detail', id],
    queryFn: () => fetchRole(id),
    enabled: id > 0,
  })
  const save = useMutation({
    mutationFn: (values: RoleFormValues) => updateRole(id, values),
    onSuccess: async () => {
      toastSuccess(MSG.updated)
      await queryClient.invalidateQueries({ queryKey: ROLES_QUERY_KEY })
      backToList()
    },
  })
  return (
    <Screen title={params.get('title') || '角色信息'}>
      {role.data ? (
        <RoleForm
          key={role.data.id}
          roleId={role.data.id}
          initialValues={role.data}
          disabled={isDisable}
          showStatus
          showSave={isShow}
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

/** /rolemanage/addrole?isShow=: role name, description and permission tree. */
export function RoleAddPage() {
  const [params] = useSearchParams()
  const backToList = useBackToList(LIST)
  const queryClient = useQueryClient()
  const create = useMutation({
    mutationFn: insertRole,
    onSuccess: async () => {
      toastSuccess(MSG.created)
      await queryClient.invalidateQueries({ queryKey: ROLES_QUERY_KEY })
      backToList()
    },
  })
  return (
    <Screen title="新建角色">
      <RoleForm
        initialValues={{ roleName: '', description: '', authCodes: [] }}
        showSave={params.get('isShow') !== 'false'}
        saving={create.isPending}
        onSubmit={(values) => create.mutate(values)}
        onBack={backToList}
      />
    </Screen>
  )
}
