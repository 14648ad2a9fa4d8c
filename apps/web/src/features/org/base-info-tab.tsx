import { useQueryClient } from '@tanstack/react-query'
import { Button, Form, Spin, Typography } from 'antd'
import { useEffect, useState } from 'react'
import { useSearchParams } from 'react-router'
import { MSG, routes } from '@amg/contract'
import { useCanCall } from '../../lib/can-call'
import { toastSuccess } from '../../lib/feedback'
import { useOrgStore } from '../../lib/stores/org-store'
import { ORG_TREE_KEY, orgDetailKey } from './api'
import { OrgForm, numberParam, useOrgDetail, type OrgFormValues } from './common'
import { FormActions } from '../../components/form-actions'

/** Base info: name and description; 修改 saves, 重置 restores the loaded values. */
export function OrgBaseInfoTab() {
  const [params] = useSearchParams()
  const id = numberParam(params.get('id'))
  const queryClient = useQueryClient()
  const [form] = Form.useForm<OrgFormValues>()
  const [saving, setSaving] = useState(false)
  const detail = useOrgDetail(id)
  // one who may not save reads the department as it is
  const canSave = useCanCall(routes.org.update)
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
      <OrgForm form={form} what="部门" onFinish={submit} disabled={!loaded || !canSave}>
        {canSave && (
          <FormActions submit="修改" saving={saving}>
            <Button onClick={reset}>重置</Button>
          </FormActions>
        )}
      </OrgForm>
    </Spin>
  )
}
