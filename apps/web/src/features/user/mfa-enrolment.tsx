import { Alert, Button, Input, QRCode, Space, Typography } from 'antd'
import { useEffect, useState } from 'react'
import { toastSuccess } from '../../lib/feedback'
import { mfaEnable, mfaSetup } from './api'

export const MFA_BOUND = '两步验证已绑定'
export const RECOVERY_CODES_NOTE =
  '每个恢复码只能使用一次。请立即复制或下载并妥善保存，关闭后将无法再次查看。'

/**
 * Binding two-step sign-in (DESIGN.md §14): the key as a QR code drawn here (antd's QRCode, no image
 * from the server) and as text for typing in, the first code to prove it, then the ten recovery codes,
 * shown this once with copy and download. `onDone` once the user has kept them.
 */
export function MfaEnrolment({ onDone }: { onDone: () => void }) {
  const [setup, setSetup] = useState<{ otpauthUri: string; secret: string } | null>(null)
  const [code, setCode] = useState('')
  const [busy, setBusy] = useState(false)
  const [codes, setCodes] = useState<string[] | null>(null)

  useEffect(() => {
    let live = true
    mfaSetup()
      .then((s) => live && setSetup(s))
      .catch(() => undefined)
    return () => {
      live = false
    }
  }, [])

  const bind = async () => {
    setBusy(true)
    try {
      const result = await mfaEnable(code.replace(/\s+/g, ''))
      toastSuccess(MFA_BOUND)
      setCodes(result.recoveryCodes)
    } catch {
      // the error toast is already shown
    } finally {
      setBusy(false)
    }
  }

  if (codes) return <RecoveryCodes codes={codes} onDone={onDone} />
  if (!setup) return <Typography.Text type="secondary">正在生成密钥…</Typography.Text>
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="mfa-enrolment">
      <Typography.Text>
        1. 用身份验证器应用（如 Google Authenticator、Microsoft Authenticator）扫描二维码：
      </Typography.Text>
      <QRCode value={setup.otpauthUri} size={180} />
      <Typography.Text>
        无法扫描时，手动输入密钥：
        <Typography.Text code copyable data-testid="mfa-secret">
          {setup.secret}
        </Typography.Text>
      </Typography.Text>
      <Typography.Text>2. 输入应用显示的 6 位验证码：</Typography.Text>
      <Space>
        <Input
          aria-label="验证码"
          placeholder="6 位验证码"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={8}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          onPressEnter={() => void bind()}
          style={{ width: 160 }}
        />
        <Button
          type="primary"
          loading={busy}
          disabled={!/^\d{6}$/.test(code.trim())}
          onClick={() => void bind()}
        >
          绑定
        </Button>
      </Space>
    </Space>
  )
}

/** The recovery codes, shown once: copy, download, then done. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = codes.join('\n')
  const download = () => {
    const url = URL.createObjectURL(new Blob([text + '\n'], { type: 'text/plain' }))
    const a = document.createElement('a')
    a.href = url
    a.download = 'recovery-codes.txt'
    a.click()
    URL.revokeObjectURL(url)
  }
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Alert type="warning" showIcon title="请保存恢复码" description={RECOVERY_CODES_NOTE} />
      <pre data-testid="recovery-codes" style={{ columns: 2, margin: 0, fontSize: 15 }}>
        {text}
      </pre>
      <Space>
        <Button
          onClick={() =>
            void navigator.clipboard?.writeText(text).then(
              () => toastSuccess('已复制'),
              () => undefined,
            )
          }
        >
          复制
        </Button>
        <Button onClick={download}>下载</Button>
        <Button type="primary" onClick={onDone}>
          我已保存
        </Button>
      </Space>
    </Space>
  )
}
