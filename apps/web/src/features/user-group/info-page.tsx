import { useEffect, useState } from 'react'
import { useSearchParams } from 'react-router'
import { Alert, Button, Form, Spin, Tabs, type TableColumnsType } from 'antd'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { MSG, SUCCESS_CODE, routes } from '@amg/contract'
import { OwnerLinkPanel } from '../../components/owner-link-panel'
import type { OwnerLinks } from '../../lib/owner-links'
import { toastSuccess } from '../../lib/feedback'
import { useBackToList } from '../../lib/list-state'
import { useCanCall } from '../../lib/can-call'
import { Screen } from '../../lib/ui/screen'
import {
  groupDetail,
  groupRoleLinks,
  groupUserLinks,
  updateGroup,
  type GroupFields as GroupFieldValues,
} from './api'
import { GroupFields, roleColumns, userColumns } from './group-fields'
import { GROUP_LIST_PATH, GROUPS_KEY } from './list-page'
import { useFormLayout } from '../../lib/ui/form-layout'
import { logInvalidForm } from '../../lib/validation'
import { FormActions } from '../../components/form-actions'

const isTrue = (value: string | null) => value === 'true' || value === '1'

export const GROUP_INFO_TABS = ['usergroupbaseinfo', 'usergrouprolerel', 'usergroupuserrel'] as const
type TabKey = (typeof GROUP_INFO_TABS)[number]

/**
 * /usergroupmanage/usergroupinfo?isDisable=&id=&isShow= (SPEC.md §2): basic info, role links and user
 * links as three tabs, basic info first. isDisable makes everything read-only; isShow shows Save.
 */
export function GroupInfoScreen() {
  const [params, setParams] = useSearchParams()
  const id = Number(params.get('id'))
  const isDisable = isTrue(params.get('isDisable'))
  const isShow = isTrue(params.get('isShow'))
  const tabParam = params.get('tab')
  const activeTab: TabKey = GROUP_INFO_TABS.includes(tabParam as TabKey)
    ? (tabParam as TabKey)
    : 'usergroupbaseinfo'

  const valid = Number.isInteger(id) && id > 0
  return (
    <Screen title="用户组信息">
      {valid ? (
        <Tabs
          activeKey={activeTab}
          destroyOnHidden
          onChange={(key) => {
            const next = new URLSearchParams(params)
            if (key === 'usergroupbaseinfo') next.delete('tab')
            else next.set('tab', key)
            setParams(next, { replace: true })
          }}
          items={[
            {
              key: 'usergroupbaseinfo',
              label: '基本信息',
              children: <GroupBaseInfo id={id} isDisable={isDisable} isShow={isShow} />,
            },
            {
              key: 'usergrouprolerel',
              label: '关联角色',
              children: <GroupLinks id={id} what="roles" readOnly={isDisable} />,
            },
            {
              key: 'usergroupuserrel',
              label: '关联用户',
              children: <GroupLinks id={id} what="users" readOnly={isDisable} />,
            },
          ]}
        />
      ) : (
        <Alert type="warning" showIcon title="缺少用户组 id" />
      )}
    </Screen>
  )
}

type Row = { id: number }

/** A link tab of the group: what it links, its columns (its candidates' too) and its search placeholder. */
interface GroupLinkTab {
  links: OwnerLinks<Row, Row>
  columns: TableColumnsType<Row>
  placeholder: string
}

const detailKey = (id: number) => [...GROUPS_KEY, 'detail', id] as const

function GroupBaseInfo(props: { id: number; isDisable: boolean; isShow: boolean }) {
  const { id } = props
  // a user who may not save sees the group as it is, whatever the address says
  const canSave = useCanCall(routes.userGroup.update)
  const isDisable = props.isDisable || !canSave
  const isShow = props.isShow && canSave
  const backToList = useBackToList(GROUP_LIST_PATH)
  const queryClient = useQueryClient()
  const [form] = Form.useForm<GroupFieldValues>()
  const layout = useFormLayout(110, true)
  const detail = useQuery({ queryKey: detailKey(id), queryFn: () => groupDetail(id) })
  const [loaded, setLoaded] = useState(false)

  useEffect(() => {
    if (detail.data) {
      form.setFieldsValue({
        groupName: detail.data.groupName,
        status: detail.data.status,
        description: detail.data.description ?? '',
      })
      setLoaded(true)
    }
  }, [detail.data, form])

  const save = useMutation({
    mutationFn: (values: GroupFieldValues) =>
      updateGroup(id, { ...values, groupName: values.groupName.trim() }),
    onSuccess: async (envelope) => {
      if (envelope.code === SUCCESS_CODE) toastSuccess(MSG.updated)
      await queryClient.invalidateQueries({ queryKey: GROUPS_KEY })
    },
  })

  if (detail.isError) return <Alert type="error" showIcon title="用户组信息加载失败" />
  return (
    <Spin spinning={detail.isLoading || !loaded}>
      <Form<GroupFieldValues>
        form={form}
        {...layout}
        style={{ maxWidth: 640 }}
        disabled={isDisable}
        onFinish={(values) => save.mutate(values)}
        onFinishFailed={logInvalidForm('用户组')}
      >
        <GroupFields />
        <FormActions submit={isShow ? '保存' : undefined} saving={save.isPending}>
          <Button disabled={false} onClick={backToList}>
            返回
          </Button>
        </FormActions>
      </Form>
    </Spin>
  )
}

const LINK_TABS: Record<'roles' | 'users', GroupLinkTab> = {
  roles: { links: groupRoleLinks, columns: roleColumns, placeholder: '按角色名称搜索' },
  users: { links: groupUserLinks, columns: userColumns, placeholder: '按用户昵称搜索' },
}

function GroupLinks({ id, what, readOnly }: { id: number; what: keyof typeof LINK_TABS; readOnly: boolean }) {
  const { links, columns, placeholder } = LINK_TABS[what]
  return (
    <OwnerLinkPanel
      owner={id}
      links={links}
      queryKey={[...GROUPS_KEY, what, id]}
      columns={columns}
      candidateColumns={columns}
      placeholder={placeholder}
      disabled={readOnly}
    />
  )
}
