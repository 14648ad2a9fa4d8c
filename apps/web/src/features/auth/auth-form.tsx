import { Button, Cascader, Col, Form, Input, InputNumber, Radio, Row, Select, Space, Typography } from 'antd'
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons'
import { MSG } from '@amg/contract'
import { useMemo } from 'react'
import { useFieldIndent, useFormLayout, useItemLabelCol } from '../../lib/ui/form-layout'
import { antdRules, logInvalidForm } from '../../lib/validation'
import type { AuthRecord, UrlMap, UrlPatternInfo } from '../../lib/stores/auth-store'
import { useBackEndCatalogue } from './api'

/** The form's values: front-end paths as a list of items (SPEC.md §3), back-end patterns as rows. */
export interface AuthFormValues {
  type?: number
  status?: number
  enName?: string
  chName?: string
  seq?: number | null
  description?: string | null
  uniqueKey?: string | null
  frontEndAccesss: { frontEndAccess?: string }[]
  urlPatternInfos: Partial<UrlPatternInfo>[]
}

/**
 * What each field is for: the permission's code (generated when it is created, fixed for the seeded ones) is what roles store
 * and what the server and the services check; the names and the unique key only describe it.
 */
const HELP = {
  enName:
    '便于辨认的英文名称（如 userAdd），只作标签。授权不看它：角色保存、服务检查的是权限点的编码（code，新建时由系统生成）。',
  uniqueKey:
    '可选，自己定的标识（如 USER_EXPORT），整棵权限树中不能重复，便于对照和查找。授权用的是权限点的编码（code），不是它。',
  frontEnd:
    '拥有此权限的用户可以打开的控制台页面。以 /** 结尾匹配该路径及其下所有页面，如 /usermanage/** 含 /usermanage/adduser；单独的 /** 匹配全部；其他写法须完全一致。',
  backEnd:
    '拥有此权限的用户可以调用的接口：请求方法加地址（不含 /api），* 表示任意方法。地址以 /** 结尾匹配其下所有地址，如 /user/** 含 /user/list，但不含 /user_groups/list。',
}

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', '*'] as const

interface CatalogueOption {
  value: string
  label: string
  children?: CatalogueOption[]
}

/** A row of a list field (a route, a call): its inputs shrink on a narrow window, the delete stays. */
const LIST_ROW = { display: 'flex', alignItems: 'baseline', gap: 8, marginBottom: 8 } as const

/** method → group → operation options of the back-end catalogue (SPEC.md §3). */
export function catalogueOptions(urlMap: UrlMap | undefined): CatalogueOption[] {
  if (!urlMap) return []
  const order = (m: string) => {
    const i = (METHODS as readonly string[]).indexOf(m)
    return i < 0 ? METHODS.length : i
  }
  return Object.keys(urlMap)
    .sort((a, b) => order(a) - order(b) || a.localeCompare(b))
    .map((method) => ({
      value: method,
      label: method,
      children: Object.entries(urlMap[method] ?? {}).map(([group, ops]) => ({
        value: group,
        label: group,
        children: ops.map((op, i) => ({
          value: String(i),
          label: `${op.apiOperationValue}（${op.urls.join(', ')}）`,
        })),
      })),
    }))
}

/** Form values → the record the store sends (trimmed; front-end paths are joined by the store). */
export function toRecord(values: AuthFormValues, extra: Partial<AuthRecord>): AuthRecord {
  const text = (v: string | null | undefined) => (v ?? '').trim()
  return {
    ...extra,
    type: values.type as number,
    status: values.status as number,
    enName: text(values.enName),
    chName: text(values.chName),
    seq: values.seq ?? 1,
    description: text(values.description) || null,
    uniqueKey: text(values.uniqueKey) || null,
    frontEndAccesss: (values.frontEndAccesss ?? []).map((i) => ({ frontEndAccess: i?.frontEndAccess ?? '' })),
    urlPatternInfos: (values.urlPatternInfos ?? []).map((p) => ({
      method: (p.method ?? '').trim(),
      uri: (p.uri ?? '').trim(),
    })),
  }
}

export interface AuthFormProps {
  initialValues: AuthFormValues
  /** Show the 按钮 (type 3) option: always when adding, only for leaf nodes when editing (SPEC.md §2). */
  showButtonType: boolean
  parentName: string
  submitText: string
  submitting: boolean
  onSubmit: (values: AuthFormValues) => void
  /** shown as it is, for a user who may not save it: no 保存, no 重置, no catalogue */
  readOnly?: boolean
}

/** The permission form of SPEC.md §5 (add and edit). */
export function AuthForm({
  initialValues,
  showButtonType,
  parentName,
  submitText,
  submitting,
  onSubmit,
  readOnly = false,
}: AuthFormProps) {
  const [form] = Form.useForm<AuthFormValues>()
  const layout = useFormLayout(110, true)
  const narrowLabel = useItemLabelCol(80)
  const indent = useFieldIndent(110)
  const catalogue = useBackEndCatalogue(!readOnly)
  const options = useMemo(() => catalogueOptions(catalogue.data), [catalogue.data])

  /** Adds the picked operation's urls as rows (no duplicates). */
  const pick = (path: (string | number)[] | undefined) => {
    if (!path || path.length < 3 || !catalogue.data) return
    const [method, group, index] = path.map(String)
    const op = catalogue.data[method]?.[group]?.[Number(index)]
    if (!op) return
    const rows: Partial<UrlPatternInfo>[] = form.getFieldValue('urlPatternInfos') ?? []
    const next = [...rows]
    for (const uri of op.urls)
      if (!next.some((r) => r.method === method && r.uri === uri)) next.push({ method, uri })
    form.setFieldValue('urlPatternInfos', next)
    void form.validateFields(['urlPatternInfos']).catch(() => undefined)
  }

  return (
    <Form<AuthFormValues>
      form={form}
      {...layout}
      initialValues={initialValues}
      disabled={readOnly}
      onFinish={onSubmit}
      // SPEC.md §5: invalid forms are not submitted and are only logged.
      onFinishFailed={logInvalidForm('权限')}
      data-testid="auth-form"
    >
      <Form.Item label="上级权限">
        <Typography.Text data-testid="auth-parent">{parentName}</Typography.Text>
      </Form.Item>
      <Form.Item label="权限类型" name="type" rules={antdRules.authType}>
        <Radio.Group>
          <Radio value={1}>菜单</Radio>
          <Radio value={2}>页面</Radio>
          {showButtonType ? <Radio value={3}>按钮</Radio> : null}
        </Radio.Group>
      </Form.Item>
      <Form.Item label="启用状态" name="status" rules={antdRules.authStatus}>
        <Radio.Group>
          <Radio value={1}>启用</Radio>
          <Radio value={2}>禁用</Radio>
        </Radio.Group>
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} sm={12}>
          <Form.Item label="英文名" name="enName" rules={antdRules.enName} tooltip={HELP.enName}>
            <Input placeholder="英文名" maxLength={64} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item label="中文名" name="chName" rules={antdRules.chName} labelCol={narrowLabel}>
            <Input placeholder="中文名" maxLength={64} />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={16}>
        <Col xs={24} sm={12}>
          <Form.Item label="排序" name="seq" rules={antdRules.seq}>
            <InputNumber<number> min={0} max={1000000} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item label="唯一标识" name="uniqueKey" labelCol={narrowLabel} tooltip={HELP.uniqueKey}>
            <Input placeholder="唯一标识" maxLength={128} />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item label="描述" name="description">
        <Input.TextArea autoSize={{ minRows: 3, maxRows: 5 }} maxLength={500} showCount />
      </Form.Item>

      <Form.Item label="前端路由" tooltip={HELP.frontEnd}>
        <Form.List name="frontEndAccesss">
          {(fields, { add, remove }) => (
            <div data-testid="front-end-list">
              {fields.map((field, i) => (
                <div key={field.key} style={LIST_ROW}>
                  <Form.Item name={[field.name, 'frontEndAccess']} noStyle>
                    <Input
                      placeholder="如 /usermanage/**"
                      style={{ flex: '0 1 360px', minWidth: 0 }}
                      aria-label={`前端路由 ${i + 1}`}
                    />
                  </Form.Item>
                  <RemoveRowButton label={`删除前端路由 ${i + 1}`} onClick={() => remove(field.name)} />
                </div>
              ))}
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ frontEndAccess: '' })}>
                添加前端路由
              </Button>
            </div>
          )}
        </Form.List>
      </Form.Item>

      <Form.Item label="后端接口" required tooltip={HELP.backEnd}>
        <Form.List
          name="urlPatternInfos"
          rules={[
            {
              validator: async (_rule, rows: unknown[] | undefined) => {
                if (!rows || rows.length === 0) throw new Error(MSG.urlPatternsRequired)
              },
            },
          ]}
        >
          {(fields, { add, remove }, { errors }) => (
            <div data-testid="back-end-list">
              <div>
                <Cascader
                  options={options}
                  value={[] /* a pick adds rows below; the picker stays empty */}
                  onChange={(v) => pick(v as (string | number)[])}
                  placeholder={
                    catalogue.isLoading ? '正在加载接口目录…' : '从接口目录选择：请求方法 / 分组 / 接口'
                  }
                  showSearch
                  expandTrigger="hover"
                  style={{ width: '100%', maxWidth: 460, marginBottom: 8 }}
                  data-testid="back-end-picker"
                />
              </div>
              {fields.map((field, i) => (
                <div key={field.key} style={LIST_ROW} data-testid="back-end-row">
                  <Form.Item
                    name={[field.name, 'method']}
                    rules={[{ required: true, message: '请选择请求方法' }]}
                    style={{ marginBottom: 0, flex: 'none' }}
                  >
                    <Select
                      style={{ width: 110 }}
                      placeholder="方法"
                      aria-label={`请求方法 ${i + 1}`}
                      options={METHODS.map((m) => ({ value: m, label: m }))}
                    />
                  </Form.Item>
                  <Form.Item
                    name={[field.name, 'uri']}
                    rules={[{ required: true, whitespace: true, message: '请输入接口地址' }]}
                    style={{ marginBottom: 0, flex: '0 1 300px', minWidth: 0 }}
                  >
                    <Input placeholder="如 /user/list 或 /user/**" aria-label={`接口地址 ${i + 1}`} />
                  </Form.Item>
                  <RemoveRowButton label={`删除后端接口 ${i + 1}`} onClick={() => remove(field.name)} />
                </div>
              ))}
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ method: 'GET', uri: '' })}>
                手动添加
              </Button>
              <Form.ErrorList errors={errors} />
            </div>
          )}
        </Form.List>
      </Form.Item>

      {readOnly ? null : (
        <Form.Item wrapperCol={{ offset: 0 }} style={{ paddingLeft: indent }}>
          <Space>
            <Button type="primary" htmlType="submit" loading={submitting}>
              {submitText}
            </Button>
            <Button onClick={() => form.resetFields()}>重置</Button>
          </Space>
        </Form.Item>
      )}
    </Form>
  )
}

/** The delete button of one row of a list field (前端路由, 后端接口). */
function RemoveRowButton({ label, onClick }: { label: string; onClick: () => void }) {
  return <Button type="text" danger icon={<DeleteOutlined />} aria-label={label} onClick={onClick} />
}
