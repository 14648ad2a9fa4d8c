import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Alert, Button, Card, Col, Form, Input, Modal, Row, Space, Spin, Typography } from 'antd'
import { useEffect, useState } from 'react'
import { Outlet, useLocation, useNavigate, useSearchParams } from 'react-router'
import { MSG } from '@amg/contract'
import { LinkPanel } from '../../components'
import { toastInfo, toastSuccess } from '../../lib/feedback'
import { useOrgStore } from '../../lib/stores/org-store'
import { RouteTabs } from '../../lib/ui/route-tabs'
import { Screen } from '../../lib/ui/screen'
import { antdRules } from '../../lib/validation'
import {
  ORG_TREE_KEY,
  fetchOrgPositions,
  fetchUnlinkedStations,
  linkStations,
  orgDetailKey,
  removePositions,
  type OrgNode,
  type OrgPositionRow,
  type StationCandidate,
} from './api'
import { OrgTree, type OrgMenuAction } from './org-tree'

const ADD_PATH = '/orgmanage/orgaddform'
const EDIT_PATH = '/orgmanage/orgeditform'

const numberParam = (value: string | null) => {
  const n = Number(value)
  return value && Number.isInteger(n) && n > 0 ? n : undefined
}

/** The department tree (GET /org/tree, kept as the organisation store's orgList). */
function useOrgTree() {
  return useQuery({
    queryKey: ORG_TREE_KEY,
    queryFn: () => useOrgStore.getState().fetchTree() as Promise<OrgNode[]>,
  })
}

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
    <Screen title="部门管理">
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

interface OrgFormValues {
  organizationName: string
  description?: string | null
}

function OrgFields() {
  return (
    <>
      <Form.Item name="organizationName" label="部门名称" rules={antdRules.orgName}>
        <Input placeholder="请输入部门名称" maxLength={64} allowClear />
      </Form.Item>
      <Form.Item name="description" label="部门描述">
        <Input.TextArea
          placeholder="请输入部门描述"
          autoSize={{ minRows: 3, maxRows: 5 }}
          maxLength={500}
          showCount
        />
      </Form.Item>
    </>
  )
}

/** New department under the `parent` of the query (the root when none is given). */
export function OrgAddFormPage() {
  const [params] = useSearchParams()
  const tree = useOrgTree()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const [form] = Form.useForm<OrgFormValues>()
  const [saving, setSaving] = useState(false)
  const root = tree.data?.[0]
  const parent = numberParam(params.get('parent')) ?? root?.id
  const parentName = params.get('parentName') || (parent === root?.id ? root?.organizationName : '')

  // A new parent starts a fresh form.
  useEffect(() => form.resetFields(), [form, parent])

  const submit = async (values: OrgFormValues) => {
    if (parent === undefined) return
    setSaving(true)
    try {
      const id = await useOrgStore.getState().create({
        organizationName: values.organizationName.trim(),
        description: values.description ?? '',
        parent,
        stationIds: [],
      })
      toastSuccess(MSG.created)
      await queryClient.invalidateQueries({ queryKey: ORG_TREE_KEY })
      navigate(`${EDIT_PATH}?id=${id}`)
    } catch {
      // the HTTP layer has shown the message
    } finally {
      setSaving(false)
    }
  }

  return (
    <Card
      title={
        <Typography.Title level={4} style={{ margin: 0 }}>
          新增部门
        </Typography.Title>
      }
      size="small"
    >
      <Form<OrgFormValues>
        form={form}
        layout="horizontal"
        labelCol={{ flex: '100px' }}
        onFinish={submit}
        onFinishFailed={({ errorFields }) => console.warn('表单校验未通过', errorFields)}
        style={{ maxWidth: 640 }}
      >
        <Form.Item label="上级部门">
          <span data-testid="org-parent-name">{parentName || '—'}</span>
        </Form.Item>
        <OrgFields />
        <Form.Item label=" " colon={false}>
          <Space>
            <Button type="primary" htmlType="submit" loading={saving} disabled={parent === undefined}>
              创建
            </Button>
            <Button onClick={() => form.resetFields()}>重置</Button>
          </Space>
        </Form.Item>
      </Form>
    </Card>
  )
}

/** The edit tabs (base info, department-position links) of the department in the query id. */
export function OrgEditFormPage() {
  const [params] = useSearchParams()
  const id = numberParam(params.get('id'))
  const detail = useQuery({
    queryKey: orgDetailKey(id ?? 0),
    queryFn: () => useOrgStore.getState().fetchOne(id!),
    enabled: id !== undefined,
  })
  return (
    <Card
      size="small"
      title={
        <Typography.Title level={4} style={{ margin: 0 }}>
          修改部门
        </Typography.Title>
      }
      extra={
        detail.data ? (
          <Typography.Text type="secondary" data-testid="org-complete-name">
            {detail.data.organizationCompleteName}
          </Typography.Text>
        ) : null
      }
    >
      {id === undefined ? (
        <Alert type="warning" showIcon message="请在左侧部门树中选择要修改的部门" />
      ) : (
        <RouteTabs
          base="/orgmanage/editform"
          tabs={[
            { key: 'orgbaseinfo', label: '基本信息' },
            { key: 'orgrelstation', label: '关联职位' },
          ]}
        />
      )}
    </Card>
  )
}

/** Base info: name and description; 修改 saves, 重置 restores the loaded values. */
export function OrgBaseInfoTab() {
  const [params] = useSearchParams()
  const id = numberParam(params.get('id'))
  const queryClient = useQueryClient()
  const [form] = Form.useForm<OrgFormValues>()
  const [saving, setSaving] = useState(false)
  const detail = useQuery({
    queryKey: orgDetailKey(id ?? 0),
    queryFn: () => useOrgStore.getState().fetchOne(id!),
    enabled: id !== undefined,
  })
  const loaded = detail.data
  const reset = () => {
    form.resetFields()
    if (loaded)
      form.setFieldsValue({
        organizationName: loaded.organizationName,
        description: loaded.description ?? '',
      })
  }
  useEffect(reset, [form, loaded])

  const submit = async (values: OrgFormValues) => {
    if (id === undefined) return
    setSaving(true)
    try {
      await useOrgStore.getState().update({
        id,
        organizationName: values.organizationName.trim(),
        description: values.description ?? '',
      })
      toastSuccess(MSG.updated)
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: orgDetailKey(id) }),
        queryClient.invalidateQueries({ queryKey: ORG_TREE_KEY }),
      ])
    } catch {
      // the HTTP layer has shown the message
    } finally {
      setSaving(false)
    }
  }

  if (id === undefined) return null
  return (
    <Spin spinning={detail.isLoading}>
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        部门基本信息
      </Typography.Title>
      <Form<OrgFormValues>
        form={form}
        labelCol={{ flex: '100px' }}
        onFinish={submit}
        onFinishFailed={({ errorFields }) => console.warn('表单校验未通过', errorFields)}
        style={{ maxWidth: 640 }}
        disabled={!loaded}
      >
        <OrgFields />
        <Form.Item label=" " colon={false}>
          <Space>
            <Button type="primary" htmlType="submit" loading={saving}>
              修改
            </Button>
            <Button onClick={reset}>重置</Button>
          </Space>
        </Form.Item>
      </Form>
    </Spin>
  )
}

/** The department's job titles (its positions): search, pages, remove, and a popover to link more. */
export function OrgRelStationTab() {
  const [params] = useSearchParams()
  const id = numberParam(params.get('id'))
  if (id === undefined) return null
  return (
    <>
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        部门职位关联
      </Typography.Title>
      <LinkPanel<OrgPositionRow, StationCandidate>
        key={id}
        queryKey={['org', 'positions', id]}
        columns={[
          { title: '职位ID', dataIndex: 'stationId', key: 'stationId', width: 120 },
          { title: '职位名称', dataIndex: 'stationName', key: 'stationName' },
        ]}
        searchPlaceholder="按职位名称搜索"
        fetchLinked={({ pageNum, pageSize, keyword }) =>
          fetchOrgPositions({ orgId: id, pageNum, pageSize, stationName: keyword })
        }
        unlink={(row) => removePositions([row.id])}
        unlinkConfirm={MSG.confirmUnlinkStation}
        linkButtonText="关联职位"
        candidateColumns={[
          { title: '职位ID', dataIndex: 'id', key: 'id', width: 80 },
          { title: '职位名称', dataIndex: 'stationName', key: 'stationName' },
        ]}
        candidatePlaceholder="按职位名称搜索"
        fetchCandidates={(keyword) => fetchUnlinkedStations(id, keyword)}
        link={(ids) => linkStations(id, ids)}
      />
    </>
  )
}
