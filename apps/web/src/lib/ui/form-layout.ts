import type { FormProps } from 'antd'
import { useSession } from '../session-store'

/**
 * How a form lays out its labels: beside the fields in a column of `labelWidth` px on a wide window,
 * above them on a phone, where a label column would leave the fields too narrow to use.
 */
export function useFormLayout(
  labelWidth: number,
  /** the fields take the rest of the row on a wide window */
  fill = false,
): Pick<FormProps, 'layout' | 'labelCol' | 'wrapperCol'> {
  const mobile = useSession((s) => s.device) === 'mobile'
  if (mobile) return { layout: 'vertical' }
  return {
    layout: 'horizontal',
    labelCol: { flex: `${labelWidth}px` },
    ...(fill ? { wrapperCol: { flex: 'auto' } } : {}),
  }
}

/** A form item's own label width, on a wide window only (on a phone the label is above the field). */
export function useItemLabelCol(labelWidth: number): FormProps['labelCol'] {
  const mobile = useSession((s) => s.device) === 'mobile'
  return mobile ? undefined : { flex: `${labelWidth}px` }
}

/** The left padding that lines buttons under a form up with its fields (none on a phone). */
export function useFieldIndent(labelWidth: number): number {
  return useSession((s) => s.device) === 'mobile' ? 0 : labelWidth
}
