import axios, {
  type AxiosError,
  type AxiosInstance,
  type AxiosRequestConfig,
  type AxiosResponse,
} from 'axios'
import {
  API_PREFIX,
  AUTH_HEADER,
  MSG,
  REQUEST_TIMEOUT_MS,
  SUCCESS_CODE,
  type ApiEnvelope,
} from '@amg/contract'
import { toastError } from './feedback'
import { navigateTo } from './navigation'
import { readToken, writeToken } from './token'
import { notifyUnauthorized } from './unauthorized'

declare module 'axios' {
  interface AxiosRequestConfig {
    /** Do not show the failure as an error toast (the caller shows or handles it). */
    silent?: boolean
    /**
     * The sign-in call: a 401 there is a wrong name or password, so the server's msg is shown
     * and the session is not ended.
     */
    authRequest?: boolean
    /** The sign-out call: a 401 there says the session had ended already, which nobody needs told. */
    signingOut?: boolean
  }
}

/** A failed call: `message` is the text shown to the user (SPEC.md §8). */
export class ApiError extends Error {
  /** HTTP status, when an answer arrived. */
  readonly status?: number
  /** Body code, when the body had one. */
  readonly code?: number
  /** axios error code for transport failures ('ERR_NETWORK', 'ECONNABORTED', ...). */
  readonly errorCode?: string
  readonly canceled: boolean

  constructor(
    text: string,
    opts: { status?: number; code?: number; errorCode?: string; canceled?: boolean } = {},
  ) {
    super(text)
    this.name = 'ApiError'
    this.status = opts.status
    this.code = opts.code
    this.errorCode = opts.errorCode
    this.canceled = opts.canceled ?? false
  }
}

export { onUnauthorized } from './unauthorized'

let lastUnauthorizedToast = 0

/**
 * SPEC.md §8: HTTP 401 → log out, go to '/', say '没有权限，请重新登录' (once for a burst of calls), or
 * why the session ended when the server says its user was frozen. Said after a `silent` call too:
 * such a call's caller handles its own refusals, not the end of the session, and whichever call
 * meets the end first is the only one to meet it (the session is gone for the others).
 */
function handleUnauthorized(signingOut: boolean, serverMsg: string | undefined): string {
  writeToken(null)
  notifyUnauthorized()
  navigateTo('/')
  const message = serverMsg === MSG.loginFrozen ? MSG.loginFrozen : MSG.unauthorized
  const now = Date.now()
  if (!signingOut && now - lastUnauthorizedToast > 1000) {
    lastUnauthorizedToast = now
    toastError(message)
  }
  return message
}

function isEnvelope(value: unknown): value is ApiEnvelope {
  return typeof value === 'object' && value !== null && 'code' in value
}

/** Maps an axios failure to the text SPEC.md §8 shows. */
export function errorText(error: AxiosError): string {
  const body = error.response?.data as Partial<ApiEnvelope> | undefined
  if (error.response) {
    if (body && typeof body === 'object' && typeof body.msg === 'string' && body.msg) return body.msg
    return error.message
  }
  return error.message // 'Network Error', 'Request aborted', 'timeout of 5000ms exceeded'
}

/** A refused download answers its envelope as a Blob: read it, so the refusal shows the server's msg. */
async function readBlobBody(error: AxiosError) {
  const response = error.response
  if (!response || typeof Blob === 'undefined' || !(response.data instanceof Blob)) return
  try {
    response.data = JSON.parse(await response.data.text()) as unknown
  } catch {
    // not JSON: the status text is shown
  }
}

export function createHttp(): AxiosInstance {
  const http = axios.create({
    baseURL: API_PREFIX,
    timeout: REQUEST_TIMEOUT_MS,
    headers: { Accept: 'application/json, text/plain, */*' },
    xsrfCookieName: 'XSRF-TOKEN',
    xsrfHeaderName: 'X-XSRF-TOKEN',
    validateStatus: (status) => status >= 200 && status < 300,
  })

  // synchronous: the request leaves within the call rather than a few promise turns later (after
  // whatever render the caller has just caused, e.g. the sign-in button's spinner)
  http.interceptors.request.use(
    (config) => {
      const token = readToken()
      if (token) config.headers.set(AUTH_HEADER, token)
      return config
    },
    undefined,
    { synchronous: true },
  )

  http.interceptors.response.use(
    (response: AxiosResponse) => {
      const body = response.data
      if (response.status === 200 && isEnvelope(body) && body.code === SUCCESS_CODE) return response
      // a file download (download() below): the body is the file, not an envelope
      if (response.status === 200 && response.config.responseType === 'blob') return response
      // 2xx other than 200, or a body code other than 200: the body msg is raised.
      const text = isEnvelope(body) && body.msg ? body.msg : `请求失败（${response.status}）`
      const err = new ApiError(text, {
        status: response.status,
        code: isEnvelope(body) ? body.code : undefined,
      })
      if (!response.config.silent) toastError(err.message)
      return Promise.reject(err)
    },
    async (error: AxiosError) => {
      await readBlobBody(error)
      const config = error.config ?? ({} as AxiosRequestConfig)
      if (axios.isCancel(error)) {
        return Promise.reject(
          new ApiError(error.message || 'canceled', { errorCode: error.code, canceled: true }),
        )
      }
      const status = error.response?.status
      const body = error.response?.data
      const code = isEnvelope(body) ? body.code : undefined
      if (status === 401 && !config.authRequest) {
        const message = handleUnauthorized(!!config.signingOut, isEnvelope(body) ? body.msg : undefined)
        return Promise.reject(new ApiError(message, { status, code }))
      }
      const err = new ApiError(errorText(error), { status, code, errorCode: error.code })
      if (!config.silent) toastError(err.message)
      return Promise.reject(err)
    },
  )
  return http
}

/** The one client of the console (SPEC.md §7). */
export const http = createHttp()

/** Options callers may pass: axios options plus `silent` / `authRequest` / `signingOut`. */
export type CallOptions = Omit<AxiosRequestConfig, 'url' | 'method' | 'data'>

/** Calls and answers the whole envelope `{code, msg, data}` (for calls whose msg is used). */
export async function call<T = unknown>(config: AxiosRequestConfig): Promise<ApiEnvelope<T>> {
  const res = await http.request<ApiEnvelope<T>>(config)
  return res.data
}

export async function get<T = unknown>(url: string, params?: object, opts?: CallOptions): Promise<T> {
  return (await call<T>({ ...opts, method: 'GET', url, params })).data
}

export async function post<T = unknown>(url: string, body?: unknown, opts?: CallOptions): Promise<T> {
  return (await call<T>({ ...opts, method: 'POST', url, data: body })).data
}

export async function put<T = unknown>(url: string, body?: unknown, opts?: CallOptions): Promise<T> {
  return (await call<T>({ ...opts, method: 'PUT', url, data: body })).data
}

export async function patch<T = unknown>(url: string, body?: unknown, opts?: CallOptions): Promise<T> {
  return (await call<T>({ ...opts, method: 'PATCH', url, data: body })).data
}

export async function del<T = unknown>(url: string, params?: object, opts?: CallOptions): Promise<T> {
  return (await call<T>({ ...opts, method: 'DELETE', url, params })).data
}

/** A file the server answers as an attachment, and the name it gives (content-disposition). */
export interface Download {
  blob: Blob
  fileName: string | null
}

/** The file name of a content-disposition header: `filename*=UTF-8''…` first, else `filename="…"`. */
export function dispositionFileName(header: string | null | undefined): string | null {
  if (!header) return null
  const encoded = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header)
  if (encoded) {
    try {
      return decodeURIComponent(encoded[1].trim().replace(/^"|"$/g, ''))
    } catch {
      // malformed: fall back to the plain name
    }
  }
  const plain = /filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;]+)/.exec(header)
  return plain ? (plain[1] ?? plain[2]).trim() || null : null
}

/** A streamed export may take longer than an ordinary call. */
export const DOWNLOAD_TIMEOUT_MS = 300_000

/** GETs a file download with the session token (failures toast and 401 signs out like any call). */
export async function download(url: string, params?: object, opts?: CallOptions): Promise<Download> {
  const res = await http.request<Blob>({
    timeout: DOWNLOAD_TIMEOUT_MS,
    ...opts,
    method: 'GET',
    url,
    params,
    // a list's several values repeat the key (`types=1&types=3`), as the server reads them
    paramsSerializer: { indexes: null },
    responseType: 'blob',
  })
  const header = res.headers['content-disposition'] as string | undefined
  return { blob: res.data, fileName: dispositionFileName(header) }
}
