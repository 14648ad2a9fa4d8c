import { cloneElement, isValidElement, useId, type ReactElement, type ReactNode } from 'react'
import { Form } from 'antd'
import type { Rule } from './rules'
import type { ValidationObserver } from './observer'
import { useField } from './hooks'

export interface ValidatedFieldProps {
  observer: ValidationObserver
  name: string
  label?: ReactNode
  /** The name used for `{field}` in messages; defaults to the label when it is text, else the name. */
  fieldName?: string
  rules?: Rule[]
  initialValue?: unknown
  disabled?: boolean
  /** The input; it receives value, onChange and onBlur. */
  children: ReactElement<{
    id?: string
    value?: unknown
    onChange?: unknown
    onBlur?: unknown
    disabled?: boolean
    status?: string
  }>
  extra?: ReactNode
}

/**
 * A labelled form field bound to a validation observer: an asterisk when its rules contain
 * required, and the first failing rule's message below the field.
 */
export function ValidatedField({
  observer,
  name,
  label,
  fieldName,
  rules,
  initialValue,
  disabled,
  children,
  extra,
}: ValidatedFieldProps) {
  const field = useField(observer, name, {
    rules,
    label: fieldName ?? (typeof label === 'string' ? label : name),
    initialValue,
    disabled,
  })
  const autoId = useId()
  const id = `field-${name}-${autoId.replace(/[^a-zA-Z0-9_-]/g, '')}`
  const input = isValidElement(children)
    ? cloneElement(children, {
        id,
        value: field.value,
        onChange: field.onChange,
        onBlur: field.onBlur,
        ...(disabled !== undefined ? { disabled } : {}),
        ...(field.error ? { status: 'error' } : {}),
      })
    : children
  return (
    <Form.Item
      label={label}
      htmlFor={id}
      required={field.required}
      validateStatus={field.error ? 'error' : undefined}
      help={field.error || undefined}
      extra={extra}
      data-field={name}
    >
      {input}
    </Form.Item>
  )
}
