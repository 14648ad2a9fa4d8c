import { describe, expect, it } from 'vitest'
import { RESOURCE_TYPES, browserName, formatLogTime, knownResult, resourceText, validTime } from './common'

describe('browserName', () => {
  it('names the browser and system of common user agents', () => {
    expect(
      browserName(
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
      ),
    ).toBe('Chrome 131 · Linux')
    expect(
      browserName(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.2210.91',
      ),
    ).toBe('Edge 120 · Windows')
    expect(
      browserName(
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_2) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Safari/605.1.15',
      ),
    ).toBe('Safari 17 · macOS')
    expect(browserName('Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0')).toBe(
      'Firefox 121 · Linux',
    )
  })

  it('shows a non-browser client by its first word, and nothing for none', () => {
    expect(browserName('curl/7.88.1')).toBe('curl/7.88.1')
    expect(browserName('node')).toBe('node')
    expect(browserName(null)).toBe('')
  })
})

describe('filters from the URL', () => {
  it('keeps only known results and valid times', () => {
    expect(knownResult(['success', 'denied'], 'denied')).toBe('denied')
    expect(knownResult(['success', 'denied'], 'bogus')).toBe('')
    expect(validTime('2026-01-02T03:04:05.000Z')).toBe('2026-01-02T03:04:05.000Z')
    expect(validTime('not a time')).toBe('')
    expect(validTime('')).toBe('')
  })
})

describe('RESOURCE_TYPES', () => {
  it('offers the group of every resource with a logged write, and only those', () => {
    expect([...RESOURCE_TYPES].sort()).toEqual(
      [
        '登录',
        '文件管理',
        '用户管理',
        '部门管理',
        '职位管理',
        '用户组管理',
        '岗位管理',
        '角色管理',
        '权限管理',
        '系统监控',
        '应用管理',
        'Webhook 管理',
        '安全设置',
        '两步验证',
        'API 密钥管理',
        '临时授权',
        '权限申请',
        '权限复核',
        '目录同步',
        '通行密钥',
      ].sort(),
    )
  })
})

describe('the record and the time of a log row', () => {
  it('shows the record as the server named it, else its group and id, else nothing', () => {
    const row = { resourceName: '用户 张三', resourceType: '用户管理', resourceId: '12' }
    expect(resourceText(row)).toBe('用户 张三')
    expect(resourceText({ ...row, resourceName: null })).toBe('用户管理 #12')
    expect(resourceText({ ...row, resourceName: null, resourceId: null })).toBe('')
  })
  it('shows a log time in the server’s zone as sent, not the browser’s', () => {
    expect(formatLogTime('2026-11-26T14:03:05.123+08:00')).toBe('2026-11-26 14:03:05 +08:00')
  })
})
