import { useEffect, useState } from 'react'
import { Alert, Button, Checkbox, Modal, Progress, Radio, Space, Typography, Upload } from 'antd'
import { DownloadOutlined, UploadOutlined } from '@ant-design/icons'
import { useMutation } from '@tanstack/react-query'
import { routes, type ImportJob, type Route } from '@amg/contract'
import { post } from '../lib/http'
import { request } from '../lib/route-call'
import { downloadFile } from '../lib/download'

/** How often the progress is asked for while a job runs. */
const POLL_MS = 500

/** What can be imported: the dialog's title, the template to fill and where it is sent. */
export const IMPORTS: Record<
  'user' | 'org',
  {
    title: string
    template: Route
    upload: Route
    templateName: string
    /** offer 允许导入超级管理员 (the user import: rows giving 超级管理员 fail without it) */
    superAdminOption: boolean
  }
> = {
  user: {
    title: '导入用户',
    template: routes.import.userTemplate,
    upload: routes.import.userImport,
    templateName: '用户导入模板.xlsx',
    superAdminOption: true,
  },
  org: {
    title: '导入部门',
    template: routes.import.orgTemplate,
    upload: routes.import.orgImport,
    templateName: '部门导入模板.xlsx',
    superAdminOption: false,
  },
}

/**
 * 导入 (DESIGN.md §15): the template, the file, the mode, 仅校验 (checked the first time: a dry run
 * first), a progress bar, then the summary and 下载结果. Used by the user list and the department tree.
 */
export function ImportDialog({
  open,
  onClose,
  what,
  onImported,
}: {
  open: boolean
  onClose: () => void
  what: keyof typeof IMPORTS
  /** after a real (not dry) run: the list reloads */
  onImported: () => void
}) {
  const { title, template, upload, templateName, superAdminOption } = IMPORTS[what]
  const [file, setFile] = useState<File | null>(null)
  const [mode, setMode] = useState<'insert' | 'upsert'>('insert')
  const [dryRun, setDryRun] = useState(true)
  const [allowSuperAdmin, setAllowSuperAdmin] = useState(false)
  const [jobId, setJobId] = useState<string | null>(null)
  const [job, setJob] = useState<ImportJob | null>(null)

  const start = useMutation({
    mutationFn: async () => {
      const form = new FormData()
      form.append('mode', mode)
      form.append('dryRun', String(dryRun))
      if (superAdminOption) form.append('allowSuperAdmin', String(allowSuperAdmin))
      form.append('file', file!)
      return post<{ jobId: string }>(upload.path, form)
    },
    onSuccess: (data) => {
      setJob(null)
      setJobId(data.jobId)
    },
  })

  useEffect(() => {
    if (!jobId) return
    let stopped = false
    const poll = async () => {
      const state = await request(routes.import.job, { query: { jobId } }).catch(() => null)
      if (stopped || !state) return
      setJob(state)
      if (state.status === 'running') setTimeout(poll, POLL_MS)
      else if (!state.dryRun) onImported()
      // after a dry run, the next run is the real one
      else setDryRun(false)
    }
    void poll()
    return () => {
      stopped = true
    }
  }, [jobId, onImported])

  const running = start.isPending || job?.status === 'running' || (jobId !== null && job === null)
  const percent = job && job.total ? Math.floor((job.done / job.total) * 100) : 0
  // failed on a fault, or its instance stopped before it ended (re-running with 新建或更新 completes it)
  const stopped = job?.status === 'failed' || job?.status === 'interrupted'

  return (
    <Modal
      open={open}
      title={title}
      onCancel={onClose}
      mask={{ closable: false }}
      footer={[
        <Button key="close" onClick={onClose}>
          关闭
        </Button>,
        <Button
          key="start"
          type="primary"
          icon={<UploadOutlined />}
          disabled={!file || running}
          loading={running}
          onClick={() => start.mutate()}
        >
          {dryRun ? '开始校验' : '开始导入'}
        </Button>,
      ]}
    >
      <Space orientation="vertical" style={{ width: '100%' }} size="middle">
        <Button
          type="link"
          icon={<DownloadOutlined />}
          style={{ padding: 0 }}
          onClick={() => void downloadFile(template.path, undefined, templateName)}
        >
          下载导入模板
        </Button>
        <Upload
          accept=".xlsx,.csv"
          maxCount={1}
          beforeUpload={(f) => {
            setFile(f)
            return false
          }}
          onRemove={() => setFile(null)}
          fileList={file ? [{ uid: '1', name: file.name, status: 'done' }] : []}
        >
          <Button icon={<UploadOutlined />}>选择文件（.xlsx 或 .csv，至多 20MB）</Button>
        </Upload>
        <Radio.Group value={mode} onChange={(e) => setMode(e.target.value as 'insert' | 'upsert')}>
          <Radio value="insert">仅新建（已存在的行失败）</Radio>
          <Radio value="upsert">新建或更新</Radio>
        </Radio.Group>
        <Checkbox checked={dryRun} onChange={(e) => setDryRun(e.target.checked)}>
          仅校验（不写入，结果与正式导入相同）
        </Checkbox>
        {superAdminOption && (
          <Checkbox checked={allowSuperAdmin} onChange={(e) => setAllowSuperAdmin(e.target.checked)}>
            允许导入超级管理员（不勾选时，授予超级管理员角色的行失败）
          </Checkbox>
        )}
        {job && (
          <>
            <Progress percent={percent} status={stopped ? 'exception' : undefined} />
            {job.status !== 'running' && (
              <Alert
                type={stopped ? 'error' : job.failed ? 'warning' : 'success'}
                showIcon
                title={job.dryRun ? '校验完成（未写入）' : stopped ? '导入中断' : '导入完成'}
                description={
                  <Space orientation="vertical">
                    <Typography.Text data-testid="import-summary">
                      共 {job.total} 行：新建 {job.inserted}，修改 {job.updated}，未变更 {job.unchanged}，失败{' '}
                      {job.failed}
                    </Typography.Text>
                    {job.msg && <Typography.Text type="danger">{job.msg}</Typography.Text>}
                    {/* an interrupted job has no result workbook: its message says how to complete it */}
                    {job.status !== 'interrupted' && (
                      <Button
                        size="small"
                        icon={<DownloadOutlined />}
                        onClick={() =>
                          void downloadFile(routes.import.result.path, { jobId }, '导入结果.xlsx')
                        }
                      >
                        下载结果
                      </Button>
                    )}
                  </Space>
                }
              />
            )}
          </>
        )}
      </Space>
    </Modal>
  )
}
