import { message } from 'antd'
import { MAX_TOASTS } from './feedback'

// antd's static toasts, for the upload's own messages: they keep the limit of the console's toasts.
message.config({ maxCount: MAX_TOASTS })

export { message }
