export * from './rules'
export * from './presets'
export * from './antd'
export * from './log-invalid'
