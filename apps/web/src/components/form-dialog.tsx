import { Modal, type FormInstance, type ModalProps } from 'antd'
import { useState, type ReactNode } from 'react'

/**
 * A form's submit as every dialog of the console does it: the fields are checked first (a refusal
 * is shown on the field, so it only goes to the console log, under `what`), then `save` runs with
 * `saving` set; a failed call's message is the HTTP layer's toast, so it is not shown again here.
 */
export function useFormSubmit<V>(
  form: FormInstance<V>,
  what: string,
  save: (values: V) => Promise<unknown> | void,
) {
  const [saving, setSaving] = useState(false)
  const submit = async () => {
    let values: V
    try {
      values = await form.validateFields()
    } catch (invalid) {
      console.info(`${what}：表单未通过校验`, invalid)
      return
    }
    setSaving(true)
    try {
      await save(values)
    } catch {
      // the HTTP layer has shown the message
    } finally {
      setSaving(false)
    }
  }
  return { saving, submit }
}

/**
 * The console's form dialog: 确定 / 取消, 确定 busy while saving, the form thrown away on close and a
 * click beside the dialog not closing it (a half-filled form is not lost by a stray click). Any
 * Modal prop given overrides these.
 */
export function FormDialog({
  saving,
  onOk,
  onClose,
  children,
  ...modal
}: Omit<ModalProps, 'onOk' | 'onCancel' | 'confirmLoading'> & {
  saving: boolean
  onOk: () => Promise<unknown> | void
  /** undefined: the dialog cannot be dismissed */
  onClose: (() => void) | undefined
  children: ReactNode
}) {
  return (
    <Modal
      okText="确定"
      cancelText="取消"
      confirmLoading={saving}
      onOk={() => void onOk()}
      onCancel={onClose}
      destroyOnHidden
      mask={{ closable: false }}
      {...modal}
    >
      {children}
    </Modal>
  )
}
