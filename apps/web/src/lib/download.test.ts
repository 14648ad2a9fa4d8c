import { afterEach, describe, expect, it, vi } from 'vitest'
import { saveBlob } from './download'
import { dispositionFileName } from './http'

describe('dispositionFileName', () => {
  it('prefers the UTF-8 name, else the plain one, else none', () => {
    expect(
      dispositionFileName(
        `attachment; filename="operation-log-1.csv"; filename*=UTF-8''${encodeURIComponent('操作日志-1.csv')}`,
      ),
    ).toBe('操作日志-1.csv')
    expect(dispositionFileName('attachment; filename="a b.csv"')).toBe('a b.csv')
    expect(dispositionFileName('attachment; filename=plain.csv')).toBe('plain.csv')
    expect(dispositionFileName('attachment; filename*=UTF-8\'\'%E0%A4%A; filename="x.csv"')).toBe('x.csv')
    expect(dispositionFileName('attachment')).toBeNull()
    expect(dispositionFileName(undefined)).toBeNull()
  })
})

describe('saveBlob', () => {
  afterEach(() => vi.restoreAllMocks())

  it('clicks a hidden link to an object address with the file name, then removes it', () => {
    const created: HTMLAnchorElement[] = []
    URL.createObjectURL = vi.fn(() => 'blob:test')
    URL.revokeObjectURL = vi.fn()
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      created.push(this)
    })
    saveBlob(new Blob(['a,b']), '操作日志.csv')
    expect(click).toHaveBeenCalledOnce()
    expect(created[0].download).toBe('操作日志.csv')
    expect(created[0].href).toBe('blob:test')
    expect(document.body.contains(created[0])).toBe(false)
  })
})

describe('download', () => {
  it('sends a list’s several values as a repeated key, as the server reads them', async () => {
    const { http, download } = await import('./http')
    const sent: string[] = []
    const adapter = http.defaults.adapter
    http.defaults.adapter = async (config) => {
      sent.push(http.getUri(config))
      return { data: new Blob(['x']), status: 200, statusText: 'OK', headers: {}, config }
    }
    try {
      await download('/role/export', { roleName: '财务', types: [1, 3], status: 2 })
    } finally {
      http.defaults.adapter = adapter
    }
    expect(sent).toHaveLength(1)
    expect(decodeURIComponent(sent[0])).toMatch(/\/role\/export\?roleName=财务&types=1&types=3&status=2$/)
  })
})
