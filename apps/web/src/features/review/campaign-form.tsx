import { REVIEW_MSG } from '@amg/contract'
import { Form, Input, Radio, Switch } from 'antd'
import { DatePicker } from '../../components/date-picker'
import { FormDialog, useFormSubmit } from '../../components/form-dialog'
import { roleNameOptions, userNameOptions } from '../../components/name-search'
import { OrgCheckTree } from '../../components/org-check-tree'
import { SearchSelect } from '../../components/search-select'
import dayjs from '../../lib/dayjs'
import { insertCampaign } from './api'

interface Values {
  name?: string
  roleIds?: number[]
  orgIds?: number[]
  reviewerIds?: number[]
  /** 'YYYY-MM-DD': the campaign is due at the end of that day */
  dueOn?: string
  defaultDecision: 'keep' | 'revoke'
  autoApply: boolean
}

const endOfDay = (day: string) => dayjs(day, 'YYYY-MM-DD').endOf('day').toISOString()

/**
 * 新建复核 (DESIGN.md §21): the roles and/or departments it covers, who reviews, the due day, and what
 * happens to items no one decided (the default decision, applied at close when 自动执行 is on).
 */
export function CampaignFormDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean
  onClose(): void
  onCreated(id: number): void
}) {
  const [form] = Form.useForm<Values>()
  const { saving, submit } = useFormSubmit(form, '权限复核', async (values) => {
    const { id } = await insertCampaign({
      name: values.name!.trim(),
      roleIds: values.roleIds ?? [],
      orgIds: values.orgIds ?? [],
      reviewerIds: values.reviewerIds ?? [],
      dueAt: endOfDay(values.dueOn!),
      defaultDecision: values.defaultDecision,
      autoApply: values.autoApply,
    })
    form.resetFields()
    onCreated(id)
  })
  return (
    <FormDialog title="新建权限复核" open={open} saving={saving} onOk={submit} onClose={onClose}>
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={{ defaultDecision: 'keep', autoApply: false }}
      >
        <Form.Item
          name="name"
          label="复核名称"
          rules={[{ required: true, whitespace: true, message: REVIEW_MSG.nameRequired }]}
        >
          <Input
            id="review_name"
            aria-label="复核名称"
            maxLength={64}
            placeholder="如 2026 年第四季度权限复核"
          />
        </Form.Item>
        <Form.Item
          name="roleIds"
          label="复核角色"
          dependencies={['orgIds']}
          rules={[
            {
              validator: async (_, roleIds?: number[]) => {
                if (!roleIds?.length && !form.getFieldValue('orgIds')?.length)
                  throw new Error(REVIEW_MSG.scopeRequired)
              },
            },
          ]}
        >
          <SearchSelect
            id="review_roles"
            label="复核角色"
            placeholder="选择要复核的角色"
            multiple
            search={roleNameOptions}
          />
        </Form.Item>
        <Form.Item
          name="orgIds"
          label="复核部门（含下级）"
          extra="与角色同时选择时，只复核这些部门中的人持有的这些角色"
        >
          <OrgCheckTree testId="review-org-tree" />
        </Form.Item>
        <Form.Item
          name="reviewerIds"
          label="复核人"
          rules={[{ required: true, message: REVIEW_MSG.reviewersRequired }]}
        >
          <SearchSelect id="review_reviewers" label="复核人" multiple search={userNameOptions} />
        </Form.Item>
        <Form.Item
          name="dueOn"
          label="截止日期"
          rules={[
            { required: true, message: '请选择截止日期' },
            {
              validator: async (_, day?: string) => {
                if (day && dayjs(endOfDay(day)).isBefore(dayjs())) throw new Error(REVIEW_MSG.dueAtPast)
              },
            },
          ]}
        >
          <DatePicker id="review_due" placeholder="选择日期" />
        </Form.Item>
        <Form.Item name="defaultDecision" label="未决定条目的默认决定">
          <Radio.Group
            options={[
              { value: 'keep', label: '保留' },
              { value: 'revoke', label: '撤销' },
            ]}
          />
        </Form.Item>
        <Form.Item name="autoApply" label="关闭时自动执行默认决定" valuePropName="checked">
          <Switch id="review_auto" aria-label="自动执行" />
        </Form.Item>
      </Form>
    </FormDialog>
  )
}
