import { Progress as AntProgress, type ProgressProps as AntProgressProps } from 'antd'

/** SPEC.md §9: stroke width 6; shows 满 at 100%. */
export const PROGRESS_STROKE_WIDTH = 6
export const FULL_TEXT = '满'

export const progressText = (percent = 0) => (percent >= 100 ? FULL_TEXT : `${percent}%`)

export type ProgressProps = AntProgressProps

/** Progress bar with stroke width 6 and '满' at 100%. */
export function Progress({
  strokeWidth = PROGRESS_STROKE_WIDTH,
  format = progressText,
  ...props
}: ProgressProps) {
  return <AntProgress strokeWidth={strokeWidth} format={format} {...props} />
}
