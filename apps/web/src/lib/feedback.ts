import type { MessageInstance } from 'antd/es/message/interface'

/**
 * The console's one toast channel (the HTTP layer, stores and screens). The app's providers hand
 * over antd's context-aware instance (its useMessage hook, which follows the theme); a toast asked
 * for before that waits for it. antd's static API is not used here: it would be about 4 kB gzip of
 * the first download (DESIGN.md §12). A component rendered on its own (the unit tests) is given one
 * with setFallbackMessageApi.
 */
type Kind = 'error' | 'success' | 'info'

let instance: MessageInstance | null = null
let fallback: MessageInstance | null = null
const waiting: [Kind, string][] = []

/** At most this many toasts show at once; a newer one pushes the oldest out. */
export const MAX_TOASTS = 3

const current = () => instance ?? fallback

function flush() {
  const api = current()
  if (api) for (const [kind, text] of waiting.splice(0)) void api[kind](text)
}

export function setMessageApi(api: MessageInstance | null) {
  instance = api
  flush()
}

/** The instance used where the providers are not (a component rendered on its own). */
export function setFallbackMessageApi(api: MessageInstance | null) {
  fallback = api
  flush()
}

function toast(kind: Kind, text: string) {
  const api = current()
  if (api) void api[kind](text)
  else waiting.push([kind, text])
}

export function toastError(text: string) {
  toast('error', text)
}

export function toastSuccess(text: string) {
  toast('success', text)
}

export function toastInfo(text: string) {
  toast('info', text)
}
