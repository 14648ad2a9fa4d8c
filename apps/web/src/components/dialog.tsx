import { Modal, type ModalProps } from 'antd'

/** SPEC.md §9: width 50%, body at most 700px high, no close on backdrop click, content destroyed on close. */
export const DIALOG_WIDTH = '50%'
export const DIALOG_MAX_HEIGHT = 700

export interface DialogProps extends Omit<ModalProps, 'open' | 'onCancel'> {
  /** Visibility is a boolean (SPEC.md §4). */
  open: boolean
  onClose?: () => void
}

/** Dialog over antd Modal with SPEC's defaults. */
export function Dialog({
  open,
  onClose,
  width = DIALOG_WIDTH,
  styles,
  footer = null,
  ...props
}: DialogProps) {
  return (
    <Modal
      open={open}
      onCancel={onClose}
      width={width}
      mask={{ closable: false }}
      destroyOnHidden
      footer={footer}
      styles={{
        ...styles,
        body: { maxHeight: DIALOG_MAX_HEIGHT, overflowY: 'auto', ...(styles as { body?: object })?.body },
      }}
      {...props}
    />
  )
}
