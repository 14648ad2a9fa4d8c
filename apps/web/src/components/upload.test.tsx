import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { message } from 'antd'
import { DEFAULT_KEEP_TIME, UPLOAD_URL, Upload, exceedMessage } from '.'

const ok = (data: unknown) =>
  new Response(JSON.stringify({ code: 200, msg: '操作成功', data }), { status: 200 })
const fail = (status: number, msg: string) =>
  new Response(JSON.stringify({ code: status, msg, data: null }), { status })
const info = {
  fileId: '0f8fad5b-d9cb-469f-a165-70867728950e',
  fileName: 'a.txt',
  size: 3,
  url: '/api/file-manage/download?fileId=0f8fad5b-d9cb-469f-a165-70867728950e',
  expireTime: '2030-01-01T00:00:00Z',
}

const fileInput = (container: HTMLElement) =>
  container.querySelector('input[type="file"]') as HTMLInputElement
const makeFile = (name: string, bytes = 3) => new File([new Uint8Array(bytes)], name, { type: 'text/plain' })

let fetchMock: ReturnType<typeof vi.fn>
beforeEach(() => {
  fetchMock = vi.fn()
  vi.stubGlobal('fetch', fetchMock)
  localStorage.setItem('Authorization', 'tok-123')
})
afterEach(() => {
  vi.unstubAllGlobals()
  localStorage.clear()
  message.destroy()
})

describe('upload', () => {
  it('automatic: posts multipart file + keepTime 1h with x-auth-token; reads data', async () => {
    fetchMock.mockResolvedValue(ok(info))
    const onSuccess = vi.fn()
    const { container } = render(<Upload onSuccess={onSuccess} />)
    await userEvent.upload(fileInput(container), makeFile('a.txt'))
    await waitFor(() => expect(onSuccess).toHaveBeenCalledWith(info, expect.any(File)))
    expect(DEFAULT_KEEP_TIME).toBe('1h')
    const [url, init] = fetchMock.mock.calls[0]
    expect(url).toBe(UPLOAD_URL)
    expect(UPLOAD_URL).toBe('/api/file-manage/upload-one-step')
    expect(init.method).toBe('POST')
    expect(init.headers).toEqual({ 'x-auth-token': 'tok-123' })
    const body = init.body as FormData
    expect((body.get('file') as File).name).toBe('a.txt')
    expect(body.get('keepTime')).toBe('1h')
  })

  it('manual: choose, then confirm', async () => {
    fetchMock.mockResolvedValue(ok(info))
    const onSuccess = vi.fn()
    const { container } = render(<Upload mode="manual" keepTime="7d" onSuccess={onSuccess} />)
    const confirm = screen.getByRole('button', { name: '确认上传' })
    expect(confirm).toBeDisabled()
    await userEvent.upload(fileInput(container), makeFile('b.txt'))
    expect(screen.getByText('b.txt')).toBeInTheDocument()
    expect(fetchMock).not.toHaveBeenCalled()
    await userEvent.click(confirm)
    await waitFor(() => expect(onSuccess).toHaveBeenCalled())
    expect((fetchMock.mock.calls[0][1].body as FormData).get('keepTime')).toBe('7d')
  })

  it("rejects a file over maxSize MB with '上传文件大小不能超过 {maxSize}MB!'", async () => {
    const { container } = render(<Upload maxSize={1} />)
    await userEvent.upload(fileInput(container), makeFile('big.bin', 1024 * 1024 + 1))
    expect(await screen.findByText('上传文件大小不能超过 1MB!')).toBeInTheDocument()
    expect(fetchMock).not.toHaveBeenCalled()
    expect(screen.queryByText('big.bin')).toBeNull()
  })

  it('warns with the limit, the selection count and the total when maxCount is exceeded', async () => {
    fetchMock.mockResolvedValue(ok(info))
    const { container } = render(<Upload mode="manual" maxCount={2} multiple />)
    await userEvent.upload(fileInput(container), makeFile('1.txt'))
    await userEvent.upload(fileInput(container), [makeFile('2.txt'), makeFile('3.txt')])
    const text = exceedMessage(2, 2, 3)
    expect(text).toBe('当前限制选择 2 个文件，本次选择了 2 个文件，共选择了 3 个文件')
    expect(await screen.findByText(text)).toBeInTheDocument()
    expect(screen.queryByText('2.txt')).toBeNull()
  })

  it("401: alert '没有上传权限，是否重新登录' with 重新登录 (calls onRelogin)", async () => {
    fetchMock.mockResolvedValue(fail(401, '登录已失效，请重新登录'))
    const onRelogin = vi.fn()
    const { container } = render(<Upload onRelogin={onRelogin} />)
    await userEvent.upload(fileInput(container), makeFile('a.txt'))
    expect(await screen.findByText('没有上传权限，是否重新登录')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: '重新登录' }))
    expect(onRelogin).toHaveBeenCalled()
    expect(screen.queryByText('没有上传权限，是否重新登录')).toBeNull()
  })

  it('401 without onRelogin clears the token and reloads', async () => {
    fetchMock.mockResolvedValue(fail(401, 'x'))
    const reload = vi.fn()
    const original = window.location
    Object.defineProperty(window, 'location', { configurable: true, value: { ...original, reload } })
    try {
      const { container } = render(<Upload />)
      await userEvent.upload(fileInput(container), makeFile('a.txt'))
      await userEvent.click(await screen.findByRole('button', { name: '重新登录' }))
      expect(localStorage.getItem('Authorization')).toBeNull()
      expect(reload).toHaveBeenCalled()
    } finally {
      Object.defineProperty(window, 'location', { configurable: true, value: original })
    }
  })

  it("403: alert '文件上传失败' with 重新上传 that retries", async () => {
    fetchMock.mockResolvedValueOnce(fail(403, '没有权限执行此操作')).mockResolvedValueOnce(ok(info))
    const onSuccess = vi.fn()
    const { container } = render(<Upload onSuccess={onSuccess} />)
    await userEvent.upload(fileInput(container), makeFile('a.txt'))
    expect(await screen.findByText('文件上传失败')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: '重新上传' }))
    await waitFor(() => expect(onSuccess).toHaveBeenCalledWith(info, expect.any(File)))
    expect(fetchMock).toHaveBeenCalledTimes(2)
    expect(screen.queryByText('文件上传失败')).toBeNull()
  })

  it('other failures show the JSON msg as an error toast', async () => {
    fetchMock.mockResolvedValue(fail(400, '保存时长只能是 30m、1h 或 7d'))
    const onError = vi.fn()
    const { container } = render(<Upload onError={onError} />)
    fireEvent.change(fileInput(container), { target: { files: [makeFile('a.txt')] } })
    expect(await screen.findByText('保存时长只能是 30m、1h 或 7d')).toBeInTheDocument()
    expect(onError).toHaveBeenCalledWith('保存时长只能是 30m、1h 或 7d', expect.any(File))
  })
})
