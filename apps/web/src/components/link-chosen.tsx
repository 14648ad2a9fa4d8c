import { Button } from 'antd'
import { MSG } from '@amg/contract'
import { useState } from 'react'
import { toastSuccess } from '../lib/feedback'

/**
 * The candidates chosen in a link popover and its 关联 button, disabled until one is chosen: `link`
 * links them; then '操作成功!' (unless `toast` is off), the choice is cleared and `done` runs. A
 * failure keeps the choice for another try (the HTTP layer has shown why).
 */
export function useLinkChosen(
  link: (ids: number[]) => Promise<unknown>,
  done: () => Promise<unknown> | void,
  toast = true,
) {
  const [selected, setSelected] = useState<number[]>([])
  const [linking, setLinking] = useState(false)
  const linkSelected = async () => {
    setLinking(true)
    try {
      await link(selected)
      if (toast) toastSuccess(MSG.successBang)
      setSelected([])
      await done()
    } catch {
      // the choice stays for another try
    } finally {
      setLinking(false)
    }
  }
  const button = (
    <Button
      type="primary"
      size="small"
      disabled={selected.length === 0}
      loading={linking}
      onClick={() => void linkSelected()}
    >
      关联
    </Button>
  )
  return { selected, setSelected, button }
}
