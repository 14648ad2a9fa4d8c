import { useQueryClient } from '@tanstack/react-query'
import { Modal } from 'antd'
import { useCallback } from 'react'
import { Outlet, useLocation, useNavigate, useSearchParams } from 'react-router'
import { MSG } from '@amg/contract'
import { ImportButton } from '../../components/import-button'
import { SplitView } from '../../components/split-view'
import { TreeActionsHint } from '../../components/tree-actions'
import { toastInfo, toastSuccess } from '../../lib/feedback'
import { useSession } from '../../lib/session-store'
import { useOrgStore } from '../../lib/stores/org-store'
import { Screen } from '../../lib/ui/screen'
import { ORG_TREE_KEY, orgDetailKey, type OrgNode } from './api'
import { ADD_PATH, EDIT_PATH, numberParam } from './common'
import { ORG_TREE_ACTIONS, OrgTree, type OrgMenuAction } from './org-tree'

/** The department tree's height on a phone, where the form comes under it. */
const ORG_TREE_PHONE_HEIGHT = 320

/**
 * Department management: the tree on the left, the add form or the edit tabs on the right (on a
 * phone the tree on top, the form below).
 */
export function OrgManagePage() {
  const navigate = useNavigate()
  const location = useLocation()
  const [params] = useSearchParams()
  const queryClient = useQueryClient()
  const [modal, modalHolder] = Modal.useModal()
  const mobile = useSession((s) => s.device) === 'mobile'
  const selectedId = location.pathname.startsWith('/orgmanage/editform')
    ? numberParam(params.get('id'))
    : numberParam(params.get('parent'))

  const remove = (node: OrgNode) =>
    modal.confirm({
      title: '删除部门',
      content: `确定要删除部门「${node.organizationName}」吗？`,
      okText: '确定',
      okType: 'danger',
      cancelText: '取消',
      onCancel: () => toastInfo(MSG.cancelDelete),
      onOk: async () => {
        try {
          await useOrgStore.getState().remove(node.id)
        } catch {
          return // the HTTP layer has shown the server's message (e.g. the department has sub-departments)
        }
        toastSuccess(MSG.deleted)
        queryClient.removeQueries({ queryKey: orgDetailKey(node.id) })
        await queryClient.invalidateQueries({ queryKey: ORG_TREE_KEY })
        if (selectedId === node.id) navigate(ADD_PATH)
      },
    })

  const onImported = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: ORG_TREE_KEY }),
    [queryClient],
  )

  const onAction = (action: OrgMenuAction, node: OrgNode) => {
    if (action === 'edit') navigate(`${EDIT_PATH}?id=${node.id}`)
    else if (action === 'addChild')
      navigate(
        `${ADD_PATH}?${new URLSearchParams({ parent: String(node.id), parentName: node.organizationName })}`,
      )
    else remove(node)
  }

  return (
    <Screen
      title="部门管理"
      description="部门的完整名称是各级名称用 '-' 连接（如 总部-研发部）。下级部门不继承上级部门的任何东西：岗位和角色都各自关联。"
    >
      <SplitView
        sideWidth={340}
        mainKey={location.pathname + location.search}
        side={
          <>
            <ImportButton what="org" style={{ marginBottom: 8 }} onImported={onImported} />
            <TreeActionsHint actions={ORG_TREE_ACTIONS} />
            <OrgTree
              selectedId={selectedId}
              onAction={onAction}
              // a phone keeps room for the form under the tree
              height={mobile ? ORG_TREE_PHONE_HEIGHT : undefined}
            />
          </>
        }
      >
        <Outlet />
      </SplitView>
      {modalHolder}
    </Screen>
  )
}
