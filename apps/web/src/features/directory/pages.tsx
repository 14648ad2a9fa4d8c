import { useQuery, useQueryClient } from '@tanstack/react-query'
import {
  routes,
  type ImportJob,
  type LdapSettingsBody,
  type LdapSettingsData,
  type SyncDiff,
} from '@amg/contract'
import { Alert, Button, Form, Input, InputNumber, Progress, Radio, Space, Switch, Table, Tag } from 'antd'
import { useState } from 'react'
import { useCanCall } from '../../lib/can-call'
import { toastSuccess } from '../../lib/feedback'
import { request } from '../../lib/route-call'
import { Screen } from '../../lib/ui/screen'

const KEY = ['settings', 'ldap']
const RUNS = ['directory', 'runs']

const DIFF_LISTS: [keyof Omit<SyncDiff, 'counts'>, string, string][] = [
  ['created', '新建', 'green'],
  ['updated', '修改', 'blue'],
  ['moved', '调动', 'purple'],
  ['frozen', '冻结', 'orange'],
  ['failed', '失败', 'red'],
]

/** A sync's diff: the counts, and each list's entries with their detail. */
export function DiffView({ diff }: { diff: SyncDiff }) {
  return (
    <div data-testid="sync-diff">
      <Space wrap style={{ marginBottom: 8 }}>
        {DIFF_LISTS.map(([key, label, color]) => (
          <Tag key={key} color={color}>
            {label} {diff.counts[key]}
          </Tag>
        ))}
        <Tag>未变更 {diff.counts.unchanged}</Tag>
      </Space>
      {DIFF_LISTS.filter(([key]) => diff[key].length).map(([key, label]) => (
        <div key={key} style={{ marginBottom: 8 }}>
          <strong>{label}</strong>
          <ul style={{ margin: '4px 0 0 16px', padding: 0 }}>
            {diff[key].map((item, i) => (
              <li key={i}>
                {item.name}
                {item.detail ? `：${item.detail}` : ''}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  )
}

/**
 * 目录同步 (DESIGN.md §22): the LDAP settings, 测试连接, 仅预览 then 立即同步 with progress, and the
 * last runs with their diffs. The server checks everything again; the password is write-only.
 */
export function DirectorySyncPage() {
  const client = useQueryClient()
  const mayEdit = useCanCall(routes.directory.putLdap)
  const maySync = useCanCall(routes.directory.sync)
  const [form] = Form.useForm<LdapSettingsBody>()
  const [busy, setBusy] = useState<string | null>(null)
  const [tested, setTested] = useState<string | null>(null)
  const [job, setJob] = useState<ImportJob | null>(null)
  const [previewed, setPreviewed] = useState(false)
  const settings = useQuery({ queryKey: KEY, queryFn: () => request(routes.directory.getLdap, {}) })
  const runs = useQuery({ queryKey: RUNS, queryFn: () => request(routes.directory.runs, {}) })

  const body = (): LdapSettingsBody => {
    const values = form.getFieldsValue(true) as LdapSettingsBody & Partial<LdapSettingsData>
    const { bindPasswordSet: _, ...rest } = values
    return { ...rest, bindPassword: values.bindPassword ?? '' }
  }
  const act = async (name: string, work: () => Promise<void>) => {
    setBusy(name)
    try {
      await work()
    } catch {
      // the error toast is already shown
    } finally {
      setBusy(null)
    }
  }
  const save = () =>
    act('save', async () => {
      await request(routes.directory.putLdap, { body: body() })
      toastSuccess('LDAP 设置已保存')
      await client.invalidateQueries({ queryKey: KEY })
    })
  const test = () =>
    act('test', async () => {
      setTested(null)
      const r = await request(routes.directory.testLdap, { body: body() })
      setTested(`连接成功：找到用户 ${r.users} 个，用户组 ${r.groups} 个`)
    })
  const sync = (dryRun: boolean) =>
    act(dryRun ? 'preview' : 'sync', async () => {
      const { jobId } = await request(routes.directory.sync, { body: { dryRun } })
      for (;;) {
        const state = await request(routes.import.job, { query: { jobId } })
        setJob(state)
        if (state.status !== 'running') break
        await new Promise((r) => setTimeout(r, 500))
      }
      setPreviewed(dryRun)
      await client.invalidateQueries({ queryKey: RUNS })
    })

  return (
    <Screen title="目录同步">
      {settings.data ? (
        <Form
          form={form}
          initialValues={{ ...settings.data, bindPassword: '' }}
          layout="horizontal"
          labelCol={{ flex: '160px' }}
          disabled={!mayEdit}
          style={{ maxWidth: 720 }}
        >
          <Form.Item label="启用" name="enabled" valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item label="LDAP 地址" name="url" extra="ldap://主机:389 或 ldaps://主机:636">
            <Input />
          </Form.Item>
          <Form.Item label="StartTLS" name="startTls" valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item label="绑定 DN" name="bindDn">
            <Input />
          </Form.Item>
          <Form.Item
            label="绑定密码"
            name="bindPassword"
            extra={settings.data.bindPasswordSet ? '已保存；留空表示不修改' : '尚未保存'}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Form.Item label="基准 DN" name="baseDn">
            <Input />
          </Form.Item>
          <Form.Item label="用户过滤条件" name="userFilter">
            <Input />
          </Form.Item>
          <Form.Item label="用户组过滤条件" name="groupFilter">
            <Input />
          </Form.Item>
          <Form.Item label="登录名属性" name={['attributes', 'nickName']}>
            <Input />
          </Form.Item>
          <Form.Item label="姓名属性" name={['attributes', 'realName']}>
            <Input />
          </Form.Item>
          <Form.Item label="手机号属性" name={['attributes', 'mobile']}>
            <Input />
          </Form.Item>
          <Form.Item label="部门来源" name="departmentFrom">
            <Radio.Group
              options={[
                { value: 'ou', label: 'OU 路径' },
                { value: 'attribute', label: '属性' },
              ]}
            />
          </Form.Item>
          <Form.Item
            label="部门属性"
            name={['attributes', 'department']}
            extra="部门来源为属性时填写，值如 总部/研发部"
          >
            <Input />
          </Form.Item>
          <Form.Item label="默认职位" name="defaultStationName">
            <Input />
          </Form.Item>
          <Form.Item label="定时同步（分钟）" name="syncMinutes" extra="0 表示不定时同步">
            <InputNumber min={0} max={10080} precision={0} />
          </Form.Item>
          {mayEdit ? (
            <Form.Item label=" " colon={false}>
              <Space>
                <Button type="primary" loading={busy === 'save'} onClick={() => void save()}>
                  保存
                </Button>
                <Button loading={busy === 'test'} onClick={() => void test()}>
                  测试连接
                </Button>
              </Space>
            </Form.Item>
          ) : null}
          {tested ? <Alert type="success" showIcon message={tested} style={{ marginBottom: 16 }} /> : null}
        </Form>
      ) : null}
      {maySync ? (
        <div style={{ maxWidth: 720, marginBottom: 24 }}>
          <Space style={{ marginBottom: 12 }}>
            <Button disabled={busy !== null} loading={busy === 'preview'} onClick={() => void sync(true)}>
              仅预览
            </Button>
            <Button
              type="primary"
              disabled={busy !== null || !previewed}
              loading={busy === 'sync'}
              onClick={() => void sync(false)}
            >
              立即同步
            </Button>
          </Space>
          {job ? (
            <div data-testid="sync-job">
              <Progress
                percent={
                  job.total ? Math.round((100 * job.done) / job.total) : job.status === 'running' ? 0 : 100
                }
              />
              <div style={{ marginBottom: 8 }}>
                {job.status === 'running'
                  ? '同步中…'
                  : job.status === 'done'
                    ? job.dryRun
                      ? '预览完成（未写入）'
                      : '同步完成'
                    : `同步失败：${job.msg ?? ''}`}
              </div>
              {job.diff ? <DiffView diff={job.diff} /> : null}
            </div>
          ) : null}
        </div>
      ) : null}
      <h3>最近同步</h3>
      <Table
        rowKey="jobId"
        size="small"
        pagination={false}
        dataSource={runs.data ?? []}
        expandable={{ expandedRowRender: (run) => (run.diff ? <DiffView diff={run.diff} /> : run.msg) }}
        columns={[
          {
            title: '开始时间',
            dataIndex: 'startedAt',
            render: (v: string) => new Date(v).toLocaleString('zh-CN'),
          },
          {
            title: '方式',
            dataIndex: 'dryRun',
            render: (v: boolean, r) =>
              `${v ? '仅预览' : '同步'}${r.trigger === 'schedule' ? '（定时）' : ''}`,
          },
          {
            title: '状态',
            dataIndex: 'status',
            render: (v: string) => ({ done: '完成', running: '进行中', failed: '失败' })[v] ?? v,
          },
          { title: '操作人', dataIndex: 'operatorName' },
          {
            title: '结果',
            render: (_: unknown, r) =>
              r.diff
                ? `新建 ${r.diff.counts.created}，修改 ${r.diff.counts.updated}，调动 ${r.diff.counts.moved}，冻结 ${r.diff.counts.frozen}，失败 ${r.diff.counts.failed}`
                : (r.msg ?? ''),
          },
        ]}
      />
    </Screen>
  )
}
