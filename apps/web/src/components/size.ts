/** SPEC.md §9: the widgets' default size is medium. */
export type WidgetSize = 'small' | 'medium' | 'large'
export const DEFAULT_SIZE: WidgetSize = 'medium'
