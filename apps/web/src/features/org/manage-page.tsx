import { useQueryClient } from '@tanstack/react-query'
import { Col, Modal, Row, Typography } from 'antd'
import { Outlet, useLocation, useNavigate, useSearchParams } from 'react-router'
import { MSG } from '@amg/contract'
import { toastInfo, toastSuccess } from '../../lib/feedback'
import { useOrgStore } from '../../lib/stores/org-store'
import { Screen } from '../../lib/ui/screen'
import { ORG_TREE_KEY, orgDetailKey, type OrgNode } from './api'
import { ADD_PATH, EDIT_PATH, numberParam, useOrgTree } from './common'
import { OrgTree, type OrgMenuAction } from './org-tree'

/** Department management: the tree on the left, the add form or the edit tabs on the right. */
export function OrgManagePage() {
  const tree = useOrgTree()
  const navigate = useNavigate()
  const location = useLocation()
  const [params] = useSearchParams()
  const queryClient = useQueryClient()
  const [modal, modalHolder] = Modal.useModal()
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
      <Row gutter={24} wrap={false}>
        <Col flex="340px" style={{ minWidth: 0 }}>
          <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
            在部门上单击右键：编辑、新增下级、删除。
          </Typography.Paragraph>
          <OrgTree
            data={tree.data ?? []}
            loading={tree.isLoading}
            selectedId={selectedId}
            onAction={onAction}
          />
        </Col>
        <Col flex="auto" style={{ minWidth: 0 }}>
          <Outlet />
        </Col>
      </Row>
      {modalHolder}
    </Screen>
  )
}
