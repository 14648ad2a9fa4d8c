import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import { SecretOnceDialog } from './secret-once-dialog'

/** The secret and what goes with it, shown once; 我已保存 closes the dialog and the secret is gone. */
function Shown() {
  const [secret, setSecret] = useState<string | null>('s3cret')
  return (
    <SecretOnceDialog
      title="应用密钥"
      secret={secret}
      alongside={[{ label: 'Client ID', value: 'orders' }]}
      secretLabel="Client Secret"
      testId="the-secret"
      onClose={() => setSecret(null)}
    />
  )
}

describe('the secret shown once', () => {
  it('shows the warning, the values with copy buttons, and goes on 我已保存', async () => {
    render(<Shown />)
    expect(await screen.findByTestId('the-secret')).toHaveTextContent('s3cret')
    expect(screen.getByText('密钥只显示这一次，关闭后无法再次查看，请立即妥善保存。')).toBeInTheDocument()
    expect(screen.getByText('orders')).toBeInTheDocument()
    expect(screen.getAllByRole('button', { name: /复制|copy/i })).toHaveLength(2)
    // a click beside the dialog leaves it open: the secret would be gone for good
    await userEvent.click(document.querySelector('.ant-modal-wrap')!)
    await new Promise((r) => setTimeout(r, 300))
    expect(screen.getByTestId('the-secret')).toHaveTextContent('s3cret')
    await userEvent.click(screen.getByRole('button', { name: '我已保存' }))
    await waitFor(() => expect(screen.queryByTestId('the-secret')).toBeNull())
  })
})
