import { Form, Input, InputNumber } from 'antd'
import { ACCESS_MSG, type EligibilityRow, type RequestableRole } from '@amg/contract'
import { FormDialog, useFormSubmit } from '../../components/form-dialog'
import { toastSuccess } from '../../lib/feedback'
import { activate, askForRole } from './api'

const minutesRule = (max: number) => ({
  validator: (_: unknown, v: number | null | undefined) =>
    v === null || v === undefined
      ? Promise.resolve()
      : Number.isInteger(v) && v >= 15 && v <= 1440
        ? v > max
          ? Promise.reject(new Error(ACCESS_MSG.minutesAboveMax(max)))
          : Promise.resolve()
        : Promise.reject(new Error(ACCESS_MSG.minutesInvalid)),
})

/** 激活: minutes within the eligibility's maximum, a reason and a two-step code where it asks for them. */
export function ActivateDialog({
  eligibility,
  onClose,
  onDone,
}: {
  eligibility: EligibilityRow | null
  onClose(): void
  onDone(): void
}) {
  const [form] = Form.useForm<{ minutes: number; reason?: string; code?: string }>()
  const { saving, submit } = useFormSubmit(form, '激活临时授权', async (v) => {
    const answer = await activate({ id: eligibility!.id, ...v })
    toastSuccess('active' in answer ? ACCESS_MSG.activated : ACCESS_MSG.requested)
    onDone()
  })
  if (!eligibility) return null
  return (
    <FormDialog
      open
      title={`激活角色“${eligibility.roleName}”`}
      saving={saving}
      onOk={submit}
      onClose={onClose}
    >
      <Form form={form} layout="vertical" initialValues={{ minutes: Math.min(60, eligibility.maxMinutes) }}>
        <Form.Item
          label={`时长（分钟，最长 ${eligibility.maxMinutes}）`}
          name="minutes"
          rules={[
            { required: true, message: ACCESS_MSG.minutesRequired },
            minutesRule(eligibility.maxMinutes),
          ]}
        >
          <InputNumber
            min={15}
            max={eligibility.maxMinutes}
            style={{ width: 200 }}
            data-testid="activate-minutes"
          />
        </Form.Item>
        <Form.Item
          label="理由"
          name="reason"
          rules={
            eligibility.requireReason
              ? [{ required: true, whitespace: true, message: ACCESS_MSG.reasonRequired }]
              : []
          }
        >
          <Input.TextArea
            maxLength={500}
            autoSize={{ minRows: 2, maxRows: 4 }}
            data-testid="activate-reason"
          />
        </Form.Item>
        {eligibility.requireMfa ? (
          <Form.Item
            label="两步验证码"
            name="code"
            rules={[{ required: true, message: ACCESS_MSG.codeRequired }]}
          >
            <Input maxLength={6} inputMode="numeric" autoComplete="one-time-code" style={{ width: 200 }} />
          </Form.Item>
        ) : null}
        {eligibility.approvals > 0 ? <div>激活需要 {eligibility.approvals} 人审批，批准后生效。</div> : null}
      </Form>
    </FormDialog>
  )
}

/** 申请: a requestable role, for some minutes (empty: 长期) and with a reason. */
export function AskDialog({
  role,
  onClose,
  onDone,
}: {
  role: RequestableRole | null
  onClose(): void
  onDone(): void
}) {
  const [form] = Form.useForm<{ minutes?: number | null; reason: string }>()
  const { saving, submit } = useFormSubmit(form, '申请权限', async (v) => {
    await askForRole({ roleId: role!.id, minutes: v.minutes ?? null, reason: v.reason })
    toastSuccess(ACCESS_MSG.requested)
    onDone()
  })
  if (!role) return null
  return (
    <FormDialog open title={`申请角色“${role.roleName}”`} saving={saving} onOk={submit} onClose={onClose}>
      <Form form={form} layout="vertical">
        <Form.Item label="时长（分钟，15–1440；不填为长期）" name="minutes" rules={[minutesRule(1440)]}>
          <InputNumber min={15} max={1440} style={{ width: 200 }} data-testid="ask-minutes" />
        </Form.Item>
        <Form.Item
          label="理由"
          name="reason"
          rules={[{ required: true, whitespace: true, message: ACCESS_MSG.reasonRequired }]}
        >
          <Input.TextArea maxLength={500} autoSize={{ minRows: 2, maxRows: 4 }} data-testid="ask-reason" />
        </Form.Item>
        <div>需要 {role.requestApprovals} 人审批。</div>
      </Form>
    </FormDialog>
  )
}
