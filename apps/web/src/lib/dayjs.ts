import dayjs from 'dayjs'
import 'dayjs/locale/zh-cn'

// Dates in Chinese (month and weekday names, weeks from Monday) for the screens and antd's pickers.
// Every use of dayjs imports it from here, so the locale is in place before any date is shown, and
// dayjs loads with the first screen that needs it rather than with the first download (DESIGN.md §12).
dayjs.locale('zh-cn')

export default dayjs
export type { Dayjs } from 'dayjs'
