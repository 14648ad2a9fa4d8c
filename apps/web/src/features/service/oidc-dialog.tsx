import { useQuery, useQueryClient } from '@tanstack/react-query'
import { OIDC_CLIENT_TYPES, type OidcClientType, type ServiceRow } from '@amg/contract'
import { Alert, Button, Form, Input, Modal, Popconfirm, Select, Space, Switch, Typography } from 'antd'
import { useState } from 'react'
import { SecretOnceDialog } from '../../components/secret-once-dialog'
import { toastSuccess } from '../../lib/feedback'
import { fetchOidc, rotateOidcSecret, saveOidc, turnOidcOff } from './api'

const TYPE_LABELS: Record<OidcClientType, string> = {
  web: 'Web 应用（有后端，使用密钥）',
  spa: '单页应用（浏览器内，仅 PKCE）',
  machine: '机器客户端（客户端凭证，以服务账号调用接口）',
}

interface FormValues {
  type: OidcClientType
  redirectUris: string
  requireConsent: boolean
}

/**
 * 单点登录 of one service (DESIGN.md §16): the application's type, its redirect URIs (matched exactly;
 * https except on localhost), whether users are asked to consent; the secret shown once when made or
 * reset; sign-on turned off.
 */
export function OidcDialog({ service, onClose }: { service: ServiceRow; onClose: () => void }) {
  const queryClient = useQueryClient()
  const key = ['service', 'oidc', service.id]
  const detail = useQuery({ queryKey: key, queryFn: () => fetchOidc(service.id) })
  const [form] = Form.useForm<FormValues>()
  const [secret, setSecret] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const type = Form.useWatch('type', form)

  const refresh = () => queryClient.invalidateQueries({ queryKey: key })

  const save = async (values: FormValues) => {
    setBusy(true)
    try {
      const saved = await saveOidc({
        serviceId: service.id,
        type: values.type,
        // a machine client has no redirect and no users to ask: neither field is shown nor sent
        ...(values.type === 'machine'
          ? { redirectUris: [] }
          : {
              redirectUris: values.redirectUris.split(/\s+/).filter(Boolean),
              requireConsent: values.requireConsent,
            }),
      })
      toastSuccess('保存成功')
      if (saved.clientSecret) setSecret(saved.clientSecret)
      await refresh()
    } finally {
      setBusy(false)
    }
  }

  const info = detail.data
  return (
    <Modal
      open
      title={`单点登录：${service.name}`}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      width={620}
    >
      {detail.isPending ? null : (
        <>
          {info ? (
            <Alert
              style={{ marginBottom: 16 }}
              type="info"
              title={
                <span>
                  Issuer：
                  <Typography.Text code copyable>
                    {info.issuer}
                  </Typography.Text>{' '}
                  Client ID：
                  <Typography.Text code copyable>
                    {info.clientId}
                  </Typography.Text>
                </span>
              }
            />
          ) : (
            <Alert style={{ marginBottom: 16 }} type="info" title="该服务尚未开启单点登录，保存后即开启。" />
          )}
          <Form<FormValues>
            form={form}
            layout="vertical"
            initialValues={{
              type: (info?.type as OidcClientType | undefined) ?? 'web',
              redirectUris: info?.redirectUris.join('\n') ?? '',
              requireConsent: info?.requireConsent ?? true,
            }}
            onFinish={(v) => void save(v)}
          >
            <Form.Item name="type" label="应用类型" rules={[{ required: true, message: '请选择应用类型' }]}>
              <Select options={OIDC_CLIENT_TYPES.map((t) => ({ value: t, label: TYPE_LABELS[t] }))} />
            </Form.Item>
            {type !== 'machine' ? (
              <>
                <Form.Item
                  name="redirectUris"
                  label="回调地址（每行一个，须完全一致；除 localhost 外须为 https）"
                  rules={[{ required: true, message: '请至少填写一个回调地址' }]}
                >
                  <Input.TextArea rows={3} placeholder="https://app.example.com/callback" />
                </Form.Item>
                <Form.Item name="requireConsent" label="需要用户授权确认" valuePropName="checked">
                  <Switch />
                </Form.Item>
              </>
            ) : null}
            <Space style={{ width: '100%', justifyContent: 'space-between' }}>
              <Space>
                {info && info.type !== 'spa' ? (
                  <Popconfirm
                    title="重置后旧密钥立即失效，是否继续？"
                    onConfirm={async () => {
                      const { clientSecret } = await rotateOidcSecret(service.id)
                      setSecret(clientSecret)
                    }}
                  >
                    <Button>重置密钥</Button>
                  </Popconfirm>
                ) : null}
                {info ? (
                  <Popconfirm
                    title="关闭后该应用的登录和令牌立即失效，是否继续？"
                    onConfirm={async () => {
                      await turnOidcOff(service.id)
                      toastSuccess('已关闭单点登录')
                      await refresh()
                      onClose()
                    }}
                  >
                    <Button danger>关闭单点登录</Button>
                  </Popconfirm>
                ) : null}
              </Space>
              <Button type="primary" htmlType="submit" loading={busy}>
                保存
              </Button>
            </Space>
          </Form>
        </>
      )}
      <SecretOnceDialog
        title="应用密钥"
        secret={secret}
        alongside={[{ label: 'Client ID', value: info?.clientId ?? service.key }]}
        secretLabel="Client Secret"
        testId="oidc-secret"
        onClose={() => setSecret(null)}
      />
    </Modal>
  )
}
