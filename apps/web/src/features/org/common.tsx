import { useQuery } from '@tanstack/react-query'
import { Form, Input, type FormInstance } from 'antd'
import type { ReactNode } from 'react'
import { useOrgStore } from '../../lib/stores/org-store'
import { useFormLayout } from '../../lib/ui/form-layout'
import { antdRules, logInvalidForm } from '../../lib/validation'
import { fetchOrgLevel, orgDetailKey, orgLevelKey } from './api'

/** What the department screens share: their paths, the query id, the tree, one department, the fields. */

export const ADD_PATH = '/orgmanage/orgaddform'
export const EDIT_PATH = '/orgmanage/orgeditform'

export const numberParam = (value: string | null) => {
  const n = Number(value)
  return value && Number.isInteger(n) && n > 0 ? n : undefined
}

/** The root level of the department tree (the add form's default parent is its first department). */
export function useOrgRoots() {
  return useQuery({
    queryKey: orgLevelKey('roots'),
    queryFn: () => fetchOrgLevel('roots'),
    staleTime: 30_000,
  })
}

/**
 * One department (GET /org/detail), loaded once an id is known. `silent`: a refusal is not toasted
 * (the edit page shows it in place of its tabs).
 */
export function useOrgDetail(id: number | undefined, opts?: { silent: boolean }) {
  return useQuery({
    queryKey: orgDetailKey(id ?? 0),
    queryFn: () => useOrgStore.getState().fetchOne(id!, opts),
    enabled: id !== undefined,
  })
}

export interface OrgFormValues {
  organizationName: string
  description?: string | null
}

function OrgFields() {
  return (
    <>
      <Form.Item
        name="organizationName"
        label="部门名称"
        rules={antdRules.orgName}
        tooltip="部门的完整名称由从顶级部门到它的各级名称用 '-' 连接而成（如 总部-研发部），所以名称中不能有 '-'。"
      >
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

/**
 * The department form of the add page and the base-info tab: its fields in the screens' layout, the
 * page's own items before them (`lead`) and its actions after.
 */
export function OrgForm(props: {
  form: FormInstance<OrgFormValues>
  /** names the form in the console log when its fields do not pass */
  what: string
  onFinish: (values: OrgFormValues) => void
  disabled?: boolean
  lead?: ReactNode
  children: ReactNode
}) {
  const layout = useFormLayout(100)
  return (
    <Form<OrgFormValues>
      form={props.form}
      {...layout}
      onFinish={props.onFinish}
      onFinishFailed={logInvalidForm(props.what)}
      style={{ maxWidth: 640 }}
      disabled={props.disabled}
    >
      {props.lead}
      <OrgFields />
      {props.children}
    </Form>
  )
}
