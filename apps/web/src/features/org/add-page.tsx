import { useQueryClient } from '@tanstack/react-query'
import { Button, Card, Empty, Form, Typography } from 'antd'
import { useEffect, useState } from 'react'
import { useNavigate, useSearchParams } from 'react-router'
import { MSG, routes } from '@amg/contract'
import { useCanCall } from '../../lib/can-call'
import { toastSuccess } from '../../lib/feedback'
import { useOrgStore } from '../../lib/stores/org-store'
import { ORG_TREE_KEY } from './api'
import { EDIT_PATH, OrgForm, numberParam, useOrgRoots, type OrgFormValues } from './common'
import { FormActions } from '../../components/form-actions'

/**
 * New department under the `parent` of the query (the root when none is given, unless the root is
 * outside the caller's data scope).
 */
export function OrgAddFormPage() {
  const [params] = useSearchParams()
  const roots = useOrgRoots()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const [form] = Form.useForm<OrgFormValues>()
  const [saving, setSaving] = useState(false)
  // a root outside the caller's scope (a greyed ancestor, DESIGN.md §13) is no default parent: they
  // choose 新增下级 on a department of theirs
  const root = roots.data?.[0]?.inScope === false ? undefined : roots.data?.[0]
  const parent = numberParam(params.get('parent')) ?? root?.id
  const parentName = params.get('parentName') || (parent === root?.id ? root?.organizationName : '')

  // A new parent starts a fresh form.
  useEffect(() => form.resetFields(), [form, parent])

  const canAdd = useCanCall(routes.org.insert)

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

  // the screen opens here; one who may not add picks a department to read
  if (!canAdd || (parent === undefined && !roots.isLoading))
    return <Empty description="请在左侧部门树中选择部门" />
  return (
    <Card
      title={
        <Typography.Title level={4} style={{ margin: 0 }}>
          新增部门
        </Typography.Title>
      }
      size="small"
    >
      <OrgForm
        form={form}
        what="新增部门"
        onFinish={submit}
        lead={
          <Form.Item label="上级部门">
            <span data-testid="org-parent-name">{parentName || '—'}</span>
          </Form.Item>
        }
      >
        <FormActions submit="创建" saving={saving} submitDisabled={parent === undefined}>
          <Button onClick={() => form.resetFields()}>重置</Button>
        </FormActions>
      </OrgForm>
    </Card>
  )
}
