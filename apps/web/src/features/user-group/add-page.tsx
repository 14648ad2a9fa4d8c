import { useRef, useState } from 'react'
import { Button, Collapse, Form, Space, type TableColumnsType } from 'antd'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { MSG, routes, type PageResult, type RoleSimple, type UserRow } from '@amg/contract'
import { LinkPanel } from '../../components'
import { ROLE_LINKS, USER_LINKS, type LinkKind } from '../../lib/owner-links'
import { toastInfo, toastSuccess } from '../../lib/feedback'
import { useBackToList } from '../../lib/list-state'
import { Screen } from '../../lib/ui/screen'
import { insertGroup, roleCandidates, userCandidates, type GroupFields as GroupFieldValues } from './api'
import { GroupFields, roleColumns, userColumns } from './group-fields'
import { GROUP_LIST_PATH, GROUPS_KEY } from './list-page'
import { useFormLayout } from '../../lib/ui/form-layout'

/**
 * The users or roles chosen on the add page before the group exists: LinkPanel's linked list is this
 * local choice (kept in a ref so the panel's refresh reads the latest), candidates come from the server
 * minus what is already chosen.
 */
function useLocalChoice<C extends { id: number }>(
  name: 'users' | 'roles',
  fetch: (keyword: string, pageNum: number) => Promise<PageResult<C>>,
  matches: (row: C, keyword: string) => boolean,
  kind: LinkKind,
) {
  const chosen = useRef(new Map<number, C>())
  const seen = useRef(new Map<number, C>())
  const [ids, setIds] = useState<number[]>([])
  const sync = () => setIds([...chosen.current.keys()])
  return {
    ids,
    panel: {
      queryKey: ['user-group-add', name] as const,
      unlinkConfirm: kind.unlinkConfirm,
      linkButtonText: kind.linkButtonText,
      // chosen here, linked by the create call itself
      calls: { link: [kind.candidatesCall], unlink: [] },
      fetchLinked: async ({
        pageNum,
        pageSize,
        keyword,
      }: {
        pageNum: number
        pageSize: number
        keyword: string
      }) => {
        const all = [...chosen.current.values()].filter((row) => !keyword || matches(row, keyword))
        return { list: all.slice((pageNum - 1) * pageSize, pageNum * pageSize), total: all.length }
      },
      unlink: async (row: C) => {
        chosen.current.delete(row.id)
        sync()
      },
      fetchCandidates: async (keyword: string, pageNum: number) => {
        const page = await fetch(keyword, pageNum)
        page.list.forEach((row) => seen.current.set(row.id, row))
        return page
      },
      link: async (linkIds: number[]) => {
        linkIds.forEach((id) => {
          const row = seen.current.get(id)
          if (row) chosen.current.set(id, row)
        })
        sync()
      },
    },
  }
}

/** A section's panel: chosen and candidates share columns and placeholder; no toast, nothing is saved yet. */
function ChoicePanel<C extends { id: number }>(props: {
  panel: ReturnType<typeof useLocalChoice<C>>['panel']
  columns: TableColumnsType<C>
  placeholder: string
}) {
  return (
    <LinkPanel<C, C>
      {...props.panel}
      columns={props.columns}
      searchPlaceholder={props.placeholder}
      successToast={false}
      candidateColumns={props.columns}
      candidatePlaceholder={props.placeholder}
    />
  )
}

/** /usergroupmanage/addusergroup: basic info, linked users and linked roles in collapsible sections. */
export function GroupAddScreen() {
  const backToList = useBackToList(GROUP_LIST_PATH)
  const queryClient = useQueryClient()
  const [form] = Form.useForm<GroupFieldValues>()
  const layout = useFormLayout(110, true)
  const [open, setOpen] = useState<string[]>(['base', 'users', 'roles'])
  const users = useLocalChoice<UserRow>('users', userCandidates, (u, k) => u.nickName.includes(k), {
    ...USER_LINKS,
    candidatesCall: routes.user.list,
  })
  const roles = useLocalChoice<RoleSimple>(
    'roles',
    (k) => roleCandidates(k),
    (r, k) => r.roleName.includes(k),
    ROLE_LINKS,
  )

  const create = useMutation({
    mutationFn: (values: GroupFieldValues) =>
      insertGroup({ ...values, groupName: values.groupName.trim() }, roles.ids, users.ids),
    onSuccess: async (envelope) => {
      toastSuccess(envelope.msg || MSG.created)
      await queryClient.invalidateQueries({ queryKey: GROUPS_KEY })
      backToList()
    },
  })

  const submit = async () => {
    try {
      const values = await form.validateFields()
      create.mutate(values)
    } catch (info) {
      if (!open.includes('base')) setOpen([...open, 'base'])
      console.info('用户组表单未通过校验', info)
    }
  }

  const cancel = () => {
    toastInfo(MSG.cancelCreate)
    backToList()
  }

  return (
    <Screen title="新建用户组">
      <Collapse
        activeKey={open}
        onChange={(keys) => setOpen(Array.isArray(keys) ? keys : [keys])}
        items={[
          {
            key: 'base',
            label: '基本信息',
            forceRender: true,
            children: (
              <Form<GroupFieldValues>
                form={form}
                {...layout}
                style={{ maxWidth: 640 }}
                initialValues={{ status: 1, description: '' }}
              >
                <GroupFields />
              </Form>
            ),
          },
          {
            key: 'users',
            label: `关联用户（已选 ${users.ids.length} 个）`,
            children: <ChoicePanel panel={users.panel} columns={userColumns} placeholder="按用户昵称搜索" />,
          },
          {
            key: 'roles',
            label: `关联角色（已选 ${roles.ids.length} 个）`,
            children: <ChoicePanel panel={roles.panel} columns={roleColumns} placeholder="按角色名称搜索" />,
          },
        ]}
      />
      <Space style={{ marginTop: 16 }}>
        <Button type="primary" loading={create.isPending} onClick={() => void submit()}>
          保存
        </Button>
        <Button onClick={cancel}>取消</Button>
      </Space>
    </Screen>
  )
}
