import { useState, type CSSProperties } from 'react'
import { Button } from 'antd'
import { UploadOutlined } from '@ant-design/icons'
import { routes } from '@amg/contract'
import { useCanCall } from '../lib/can-call'
import { IMPORTS, ImportDialog } from './import-dialog'

/** 导入 of a list: shown to a user who may make the import's calls, it opens the import dialog. */
export function ImportButton({
  what,
  onImported,
  style,
}: {
  what: keyof typeof IMPORTS
  /** after a real (not dry) run: the list reloads */
  onImported: () => void
  style?: CSSProperties
}) {
  const { template, upload } = IMPORTS[what]
  const allowed = useCanCall(template, upload, routes.import.job)
  const [open, setOpen] = useState(false)
  return (
    <>
      {allowed && (
        <Button icon={<UploadOutlined />} style={style} onClick={() => setOpen(true)}>
          导入
        </Button>
      )}
      <ImportDialog open={open} onClose={() => setOpen(false)} what={what} onImported={onImported} />
    </>
  )
}
