import { Button, Form, Input, Select } from 'antd'
import { useEffect, useState } from 'react'
import { useBackToList } from '../../lib/list-state'
import { antdRules, logInvalidForm } from '../../lib/validation'
import { LIST_PATH, STATION_TYPE_OPTIONS, type StationFormValues } from './common'
import { OrgCheckTree } from '../../components/org-check-tree'
import { useFormLayout } from '../../lib/ui/form-layout'
import { FormActions } from '../../components/form-actions'

/** Name, type and the department tree; 'view' shows them read-only with only a Back button. */
export function StationForm({
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
  const layout = useFormLayout(100)
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
      {...layout}
      style={{ maxWidth: 720 }}
      initialValues={{ stationName: '', type: 1, orgIds: [] }}
      onFinish={submit}
      onFinishFailed={logInvalidForm('职位')}
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
          style={{ width: '100%', maxWidth: 240 }}
        />
      </Form.Item>
      <Form.Item
        name="orgIds"
        label="所属部门"
        tooltip="勾选的每个部门都会得到一个该职位的岗位；取消勾选会删除对应岗位，连同它关联的用户和角色。"
      >
        <OrgCheckTree disabled={readOnly} />
      </Form.Item>
      <FormActions submit={readOnly ? undefined : mode === 'add' ? '创建' : '修改'} saving={saving}>
        <Button onClick={backToList}>返回</Button>
      </FormActions>
    </Form>
  )
}
