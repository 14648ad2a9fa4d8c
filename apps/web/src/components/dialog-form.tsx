import { Form, type FormInstance, type FormProps } from 'antd'
import type { ComponentProps, ReactNode } from 'react'
import { FormDialog, useFormSubmit } from './form-dialog'

type DialogFormProps<V> = Omit<ComponentProps<typeof FormDialog>, 'saving' | 'onOk'> & {
  /** names the form in the console log when its fields do not pass */
  what: string
  save(values: V, form: FormInstance<V>): Promise<unknown> | void
  /** the form's own props (layout, initial values); the form is thrown away on close */
  fields?: Omit<FormProps<V>, 'form' | 'preserve' | 'onFinish'>
  /** Enter in a field saves, as 确定 does */
  submitOnEnter?: boolean
  /** shown above the form */
  intro?: ReactNode
}

/**
 * A dialog around a form of its own: 确定 checks the fields and runs `save` (useFormSubmit), with the
 * manners of FormDialog.
 */
export function DialogForm<V>(props: DialogFormProps<V>) {
  const { what, save, fields, submitOnEnter, intro, children, ...dialog } = props
  const [form] = Form.useForm<V>()
  const { saving, submit } = useFormSubmit(form, what, (values) => save(values, form))
  return (
    <FormDialog {...dialog} saving={saving} onOk={submit}>
      {intro}
      <Form<V>
        form={form}
        preserve={false}
        {...fields}
        onFinish={submitOnEnter ? () => void submit() : undefined}
      >
        {children}
      </Form>
    </FormDialog>
  )
}
