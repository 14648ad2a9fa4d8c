import { message } from 'antd'
import type { MessageInstance } from 'antd/es/message/interface'

/**
 * The console's one toast channel (the HTTP layer, stores and screens). The app's providers hand
 * over antd's context-aware instance (message.useMessage(), which follows the theme); before that,
 * the static one is used.
 */
let instance: MessageInstance | null = null

/** At most this many toasts show at once; a newer one pushes the oldest out (the providers set it). */
export const MAX_TOASTS = 3

export function setMessageApi(api: MessageInstance | null) {
  instance = api
}

export function toastError(text: string) {
  void (instance ?? message).error(text)
}

export function toastSuccess(text: string) {
  void (instance ?? message).success(text)
}

export function toastInfo(text: string) {
  void (instance ?? message).info(text)
}
