import { AxiosError, AxiosHeaders, type AxiosAdapter, type InternalAxiosRequestConfig } from 'axios'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { MSG, TOKEN_STORAGE_KEY } from '@amg/contract'

const toastError = vi.fn()
const navigateTo = vi.fn()
vi.mock('../src/lib/feedback', () => ({ toastError: (t: string) => toastError(t), toastSuccess: vi.fn() }))
vi.mock('../src/lib/navigation', () => ({
  navigateTo: (to: string) => navigateTo(to),
  setNavigator: vi.fn(),
}))

const { http, get, post, put, patch, del, call, onUnauthorized, ApiError } = await import('../src/lib/http')

/** The error a call fails with (the test fails when it succeeds). */
const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected the call to fail')
    },
    (e) => e as InstanceType<typeof ApiError>,
  )

/** Test double for the network: answers each request with the given status and body, or fails. */
function answer(status: number, body: unknown): AxiosAdapter {
  return async (config: InternalAxiosRequestConfig) => {
    const response = { status, statusText: String(status), data: body, headers: {}, config, request: {} }
    if (config.validateStatus && !config.validateStatus(status)) {
      throw new AxiosError(
        `Request failed with status code ${status}`,
        AxiosError.ERR_BAD_RESPONSE,
        config,
        {},
        response,
      )
    }
    return response
  }
}
function fail(message: string, code: string): AxiosAdapter {
  return async (config) => {
    throw new AxiosError(message, code, config, {})
  }
}

let seen: InternalAxiosRequestConfig | undefined
const originalAdapter = http.defaults.adapter
function stub(adapter: AxiosAdapter) {
  http.defaults.adapter = async (config) => {
    seen = config
    return adapter(config)
  }
}

beforeEach(() => {
  toastError.mockClear()
  navigateTo.mockClear()
  localStorage.clear()
  seen = undefined
})
afterEach(() => {
  http.defaults.adapter = originalAdapter
})

describe('request defaults (SPEC.md §7, §9)', () => {
  it('uses /api, 5000 ms, XSRF cookie and header names', () => {
    expect(http.defaults.baseURL).toBe('/api')
    expect(http.defaults.timeout).toBe(5000)
    expect(http.defaults.xsrfCookieName).toBe('XSRF-TOKEN')
    expect(http.defaults.xsrfHeaderName).toBe('X-XSRF-TOKEN')
  })

  it('sends x-auth-token from local storage when present', async () => {
    stub(answer(200, { code: 200, msg: 'ok', data: 1 }))
    await get('/thing')
    expect(AxiosHeaders.from(seen!.headers).get('x-auth-token')).toBeFalsy()
    localStorage.setItem(TOKEN_STORAGE_KEY, 'tok-123')
    await get('/thing')
    expect(AxiosHeaders.from(seen!.headers).get('x-auth-token')).toBe('tok-123')
  })

  it('sends objects as JSON and query params for get/del', async () => {
    stub(answer(200, { code: 200, msg: 'ok', data: null }))
    await post('/role/listall', { pageNum: 1 })
    expect(seen!.method).toBe('post')
    expect(JSON.parse(seen!.data)).toEqual({ pageNum: 1 })
    await del('/role/delete', { id: 3 })
    expect(seen!.method).toBe('delete')
    expect(seen!.params).toEqual({ id: 3 })
    await put('/x', { a: 1 })
    expect(seen!.method).toBe('put')
    await patch('/y', { b: 2 })
    expect(seen!.method).toBe('patch')
  })
})

describe('success rule', () => {
  it('answers data when HTTP 200 and body code 200', async () => {
    stub(answer(200, { code: 200, msg: 'ok', data: { list: [1], total: 1 } }))
    await expect(post('/user/list', {})).resolves.toEqual({ list: [1], total: 1 })
    expect(toastError).not.toHaveBeenCalled()
  })

  it('call() answers the whole envelope (msg is used by some screens)', async () => {
    stub(answer(200, { code: 200, msg: '创建成功', data: 'A01' }))
    await expect(call({ method: 'POST', url: '/auth/insert' })).resolves.toEqual({
      code: 200,
      msg: '创建成功',
      data: 'A01',
    })
  })

  it('raises the body msg when the body code is not 200, and toasts it', async () => {
    stub(answer(200, { code: 409, msg: '角色名称已存在', data: null }))
    const err = await failure(post('/role/insert', {}))
    expect(err).toBeInstanceOf(ApiError)
    expect(err.message).toBe('角色名称已存在')
    expect(err.code).toBe(409)
    expect(toastError).toHaveBeenCalledWith('角色名称已存在')
  })

  it('treats a 2xx other than 200 as a failure', async () => {
    stub(answer(201, { code: 200, msg: '奇怪的成功', data: null }))
    await expect(get('/x')).rejects.toThrow('奇怪的成功')
  })

  it('raises the top-level msg when the HTTP status is not 200', async () => {
    stub(answer(409, { code: 409, msg: '不能删除自己！', data: null }))
    await expect(del('/user/delete', { userId: 1 })).rejects.toThrow(MSG.deleteSelf)
    expect(toastError).toHaveBeenCalledWith(MSG.deleteSelf)
    stub(answer(403, { code: 403, msg: MSG.forbidden, data: null }))
    await expect(get('/x')).rejects.toMatchObject({ message: MSG.forbidden, status: 403 })
    stub(answer(500, 'oops'))
    await expect(get('/x')).rejects.toThrow('Request failed with status code 500')
  })

  it('does not toast when the caller opts out', async () => {
    stub(answer(400, { code: 400, msg: '请求参数不正确', data: null }))
    await expect(get('/x', undefined, { silent: true })).rejects.toThrow('请求参数不正确')
    expect(toastError).not.toHaveBeenCalled()
  })
})

describe('network failures keep axios texts (SPEC.md §8)', () => {
  it.each([
    ['Network Error', 'ERR_NETWORK'],
    ['Request aborted', 'ECONNABORTED'],
    ['timeout of 5000ms exceeded', 'ECONNABORTED'],
  ])('%s', async (text, code) => {
    stub(fail(text, code))
    const err = await failure(get('/x'))
    expect(err.message).toBe(text)
    expect(err.errorCode).toBe(code)
    expect(toastError).toHaveBeenCalledWith(text)
  })

  it('a real server that never answers gives timeout of 5000ms exceeded (axios own adapter)', async () => {
    const server = createServer(() => {
      // never answers
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const { port } = server.address() as AddressInfo
    try {
      const err = await failure(get(`http://127.0.0.1:${port}/api/slow`))
      expect(err.message).toBe('timeout of 5000ms exceeded')
      expect(err.errorCode).toBe('ECONNABORTED')
      expect(toastError).toHaveBeenCalledWith('timeout of 5000ms exceeded')
    } finally {
      server.closeAllConnections()
      server.close()
    }
  })

  it('a real refused connection gives Network Error', async () => {
    const server = createServer()
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const { port } = server.address() as AddressInfo
    await new Promise((r) => server.close(r))
    const err = await failure(get(`http://127.0.0.1:${port}/api/x`))
    expect(err.message).toBe('Network Error')
  })

  it('a request cancelled by the caller is not toasted', async () => {
    stub(fail('canceled', 'ERR_CANCELED'))
    const controller = new AbortController()
    controller.abort()
    const err = await failure(get('/x', undefined, { signal: controller.signal }))
    expect(err.canceled).toBe(true)
    expect(toastError).not.toHaveBeenCalled()
  })
})

describe('401 flow', () => {
  it('logs out, goes to / and says 没有权限，请重新登录', async () => {
    localStorage.setItem(TOKEN_STORAGE_KEY, 'stale')
    const listener = vi.fn()
    const off = onUnauthorized(listener)
    stub(answer(401, { code: 401, msg: '登录已失效，请重新登录', data: null }))
    await expect(get('/user/current')).rejects.toThrow(MSG.unauthorized)
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull()
    expect(listener).toHaveBeenCalledTimes(1)
    expect(navigateTo).toHaveBeenCalledWith('/')
    expect(toastError).toHaveBeenCalledWith(MSG.unauthorized)
    off()
  })

  it('says 账号已冻结 when the server ended the session because its user was frozen', async () => {
    await new Promise((r) => setTimeout(r, 1100))
    localStorage.setItem(TOKEN_STORAGE_KEY, 'frozen')
    stub(answer(401, { code: 401, msg: MSG.loginFrozen, data: null }))
    await expect(get('/user/current')).rejects.toThrow(MSG.loginFrozen)
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull()
    expect(navigateTo).toHaveBeenCalledWith('/')
    expect(toastError).toHaveBeenCalledWith(MSG.loginFrozen)
  })

  it('shows the message once for a burst of 401s', async () => {
    await new Promise((r) => setTimeout(r, 1100))
    stub(answer(401, { code: 401, msg: 'x', data: null }))
    await Promise.allSettled([get('/a'), get('/b'), get('/c')])
    expect(toastError).toHaveBeenCalledTimes(1)
    expect(navigateTo).toHaveBeenCalledTimes(3)
  })

  it('says it after a silent call too, but not after the sign-out call', async () => {
    await new Promise((r) => setTimeout(r, 1100))
    stub(answer(401, { code: 401, msg: 'x', data: null }))
    // a screen that shows its own refusals still leaves the session's end to be told
    await expect(get('/user/detail', undefined, { silent: true })).rejects.toThrow(MSG.unauthorized)
    expect(toastError).toHaveBeenCalledWith(MSG.unauthorized)
    await new Promise((r) => setTimeout(r, 1100))
    vi.mocked(toastError).mockClear()
    await expect(post('/logout', undefined, { silent: true, signingOut: true })).rejects.toThrow()
    expect(toastError).not.toHaveBeenCalled()
    expect(navigateTo).toHaveBeenCalledWith('/')
  })

  it('the sign-in call shows the server msg and keeps the session flow out of it', async () => {
    localStorage.setItem(TOKEN_STORAGE_KEY, 'keep')
    stub(answer(401, { code: 401, msg: MSG.loginFailed, data: null }))
    await expect(post('/login', { nickName: 'a', password: 'b' }, { authRequest: true })).rejects.toThrow(
      MSG.loginFailed,
    )
    expect(toastError).toHaveBeenCalledWith(MSG.loginFailed)
    expect(navigateTo).not.toHaveBeenCalled()
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBe('keep')
  })
})
