import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query'
import { Button, Form, Input, Popconfirm, Select, Space, Spin, Table, type TableColumnsType } from 'antd'
import dayjs from '../../lib/dayjs'
import { useEffect, useState } from 'react'
import { useNavigate, useSearchParams } from 'react-router'
import { MSG } from '@amg/contract'
import { Pagination } from '../../components'
import { toastInfo, toastSuccess } from '../../lib/feedback'
import { useBackToList, useDraft, useKeepPageInRange, useListState } from '../../lib/list-state'
import { useStationStore, type Station } from '../../lib/stores/station-store'
import { Screen } from '../../lib/ui/screen'
import { antdRules } from '../../lib/validation'
import { OrgCheckTree } from './org-check-tree'

const LIST_PATH = '/stationmanage'
const STATION_LIST_KEY = ['station', 'list'] as const
const stationDetailKey = (id: number) => ['station', 'detail', id] as const

/** Job title types (SPEC.md §3): 1 普通职位. */
export const STATION_TYPE_OPTIONS = [{ value: 1, label: '普通职位' }]
const typeLabel = (type: number) => STATION_TYPE_OPTIONS.find((o) => o.value === type)?.label ?? String(type)
const formatTime = (value?: string) => (value ? dayjs(value).format('YYYY-MM-DD HH:mm:ss') : '')

const numberParam = (value: string | null) => {
  const n = Number(value)
  return value && Number.isInteger(n) && n > 0 ? n : undefined
}

/** The search in the URL query (lib/list-state.ts). */
const STATION_LIST_FILTERS = { stationName: 'text' } as const

/** Job title list (SPEC.md §2): search by stationName, create, edit, delete and view, 10 per page. */
export function StationListPage() {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const listState = useListState(STATION_LIST_FILTERS)
  const { pageNum, pageSize } = listState
  const { stationName } = listState.filters
  const [keyword, setKeyword] = useDraft(stationName)
  const query = { stationName, pageNum, pageSize }
  const list = useQuery({
    queryKey: [...STATION_LIST_KEY, query],
    queryFn: () => useStationStore.getState().fetchList({ ...query, stationName: stationName || undefined }),
    placeholderData: keepPreviousData,
  })
  useKeepPageInRange(listState, list.data)

  const remove = async (row: Station) => {
    try {
      await useStationStore.getState().remove(row.id)
    } catch {
      return // the HTTP layer has shown the message
    }
    toastSuccess(MSG.deleted)
    queryClient.removeQueries({ queryKey: stationDetailKey(row.id) })
    await queryClient.invalidateQueries({ queryKey: STATION_LIST_KEY })
  }

  const open = (screen: 'editstation' | 'viewstation', row: Station, title: string) =>
    navigate(`${LIST_PATH}/${screen}?${new URLSearchParams({ title, id: String(row.id) })}`)

  const columns: TableColumnsType<Station> = [
    { title: '职位ID', dataIndex: 'id', key: 'id', width: 100 },
    { title: '职位名称', dataIndex: 'stationName', key: 'stationName' },
    { title: '职位类型', dataIndex: 'type', key: 'type', width: 120, render: (t: number) => typeLabel(t) },
    { title: '创建时间', dataIndex: 'createTime', key: 'createTime', width: 180, render: formatTime },
    { title: '修改时间', dataIndex: 'updateTime', key: 'updateTime', width: 180, render: formatTime },
    {
      title: '操作',
      key: 'actions',
      width: 200,
      render: (_: unknown, row) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => open('viewstation', row, '查看职位')}>
            查看
          </Button>
          <Button type="link" size="small" onClick={() => open('editstation', row, '修改职位')}>
            修改
          </Button>
          <Popconfirm
            title={`确定要删除职位「${row.stationName}」吗？`}
            okText="确定"
            cancelText="取消"
            onConfirm={() => remove(row)}
            onCancel={() => toastInfo(MSG.cancelDelete)}
          >
            <Button type="link" size="small" danger>
              删除
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ]

  return (
    <Screen title="职位管理">
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          placeholder="按职位名称搜索"
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          onSearch={(value) => listState.setFilters({ stationName: value.trim() })}
          enterButton="搜索"
          style={{ width: 320 }}
        />
        <Button type="primary" onClick={() => navigate(`${LIST_PATH}/addstation`)}>
          新建
        </Button>
      </Space>
      <Table<Station>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.data?.list ?? []}
        loading={list.isFetching}
        pagination={false}
        // a narrow window scrolls the table sideways rather than squeezing its columns
        scroll={{ x: 880 }}
      />
      <div style={{ marginTop: 16, display: 'flex', justifyContent: 'flex-end' }}>
        <Pagination
          total={list.data?.total ?? 0}
          current={pageNum}
          pageSize={pageSize}
          onChange={(page, size) => listState.setPage(page, size)}
        />
      </div>
    </Screen>
  )
}

interface StationFormValues {
  stationName: string
  type?: number
  orgIds: number[]
}

/** Name, type and the department tree; 'view' shows them read-only with only a Back button. */
function StationForm({
  mode,
  initial,
  onSubmit,
}: {
  mode: 'add' | 'edit' | 'view'
  initial?: StationFormValues
  onSubmit?: (values: StationFormValues) => Promise<void>
}) {
  const backToList = useBackToList(LIST_PATH)
  const [form] = Form.useForm<StationFormValues>()
  const [saving, setSaving] = useState(false)
  const readOnly = mode === 'view'
  useEffect(() => {
    form.resetFields()
    if (initial) form.setFieldsValue(initial)
  }, [form, initial])

  const submit = async (values: StationFormValues) => {
    setSaving(true)
    try {
      await onSubmit?.(values)
    } finally {
      setSaving(false)
    }
  }

  return (
    <Form<StationFormValues>
      form={form}
      labelCol={{ flex: '100px' }}
      style={{ maxWidth: 720 }}
      initialValues={{ stationName: '', type: 1, orgIds: [] }}
      onFinish={submit}
      onFinishFailed={({ errorFields }) => console.warn('表单校验未通过', errorFields)}
    >
      <Form.Item name="stationName" label="职位名称" rules={readOnly ? undefined : antdRules.stationName}>
        <Input placeholder="请输入职位名称" maxLength={64} disabled={readOnly} allowClear={!readOnly} />
      </Form.Item>
      <Form.Item name="type" label="职位类型" rules={readOnly ? undefined : antdRules.stationType}>
        <Select
          placeholder="请选择职位类型"
          options={STATION_TYPE_OPTIONS}
          disabled={readOnly}
          allowClear={!readOnly}
          style={{ width: 240 }}
        />
      </Form.Item>
      <Form.Item name="orgIds" label="所属部门">
        <OrgCheckTree disabled={readOnly} />
      </Form.Item>
      <Form.Item label=" " colon={false}>
        <Space>
          {readOnly ? null : (
            <Button type="primary" htmlType="submit" loading={saving}>
              {mode === 'add' ? '创建' : '修改'}
            </Button>
          )}
          <Button onClick={backToList}>返回</Button>
        </Space>
      </Form.Item>
    </Form>
  )
}

/** One station (station store fetchOne), with the checked departments from stationPositionVOS. */
function useStation(id: number | undefined) {
  return useQuery({
    queryKey: stationDetailKey(id ?? 0),
    queryFn: async (): Promise<StationFormValues> => {
      const station = await useStationStore.getState().fetchOne(id!)
      const orgIds = station.stationPositionVOS?.length
        ? [...new Set(station.stationPositionVOS.map((p) => p.orgId))]
        : (station.orgIds ?? [])
      return { stationName: station.stationName, type: station.type, orgIds }
    },
    enabled: id !== undefined,
  })
}

export function StationAddPage() {
  const backToList = useBackToList(LIST_PATH)
  const queryClient = useQueryClient()
  const submit = async (values: StationFormValues) => {
    try {
      await useStationStore.getState().add({
        stationName: values.stationName.trim(),
        type: values.type!,
        orgIds: values.orgIds ?? [],
      })
    } catch {
      return // the HTTP layer has shown the message
    }
    toastSuccess(MSG.created)
    await queryClient.invalidateQueries({ queryKey: STATION_LIST_KEY })
    backToList()
  }
  return (
    <Screen title="新建职位">
      <StationForm mode="add" onSubmit={submit} />
    </Screen>
  )
}

export function StationEditPage() {
  const [params] = useSearchParams()
  const id = numberParam(params.get('id'))
  const backToList = useBackToList(LIST_PATH)
  const queryClient = useQueryClient()
  const station = useStation(id)
  const submit = async (values: StationFormValues) => {
    if (id === undefined) return
    try {
      await useStationStore.getState().update({
        id,
        stationName: values.stationName.trim(),
        type: values.type!,
        orgIds: values.orgIds ?? [],
      })
    } catch {
      return
    }
    toastSuccess(MSG.updated)
    await queryClient.invalidateQueries({ queryKey: ['station'] })
    backToList()
  }
  return (
    <Screen title={params.get('title') || '修改职位'}>
      <Spin spinning={station.isLoading}>
        <StationForm mode="edit" initial={station.data} onSubmit={submit} />
      </Spin>
    </Screen>
  )
}

export function StationViewPage() {
  const [params] = useSearchParams()
  const station = useStation(numberParam(params.get('id')))
  return (
    <Screen title={params.get('title') || '查看职位'}>
      <Spin spinning={station.isLoading}>
        <StationForm mode="view" initial={station.data} />
      </Spin>
    </Screen>
  )
}
