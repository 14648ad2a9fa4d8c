import { describe, expect, it } from 'vitest'
import { toAuthPayload } from '../../lib/stores/auth-store'
import { catalogueOptions, toRecord } from './auth-form'

describe('permission form values → payload (SPEC.md §5)', () => {
  it('trims every front-end path, drops empty ones and joins them with commas', () => {
    const record = toRecord(
      {
        type: 1,
        status: 1,
        enName: ' en ',
        chName: ' 中文 ',
        seq: null,
        description: '  ',
        uniqueKey: '',
        frontEndAccesss: [
          { frontEndAccess: '  /a/**  ' },
          { frontEndAccess: ' ' },
          { frontEndAccess: ' /b ' },
          {},
        ],
        urlPatternInfos: [{ method: 'GET', uri: ' /auth/detail ' }],
      },
      { parentCode: 'p', level: 2 },
    )
    expect(toAuthPayload(record)).toEqual({
      parentCode: 'p',
      level: 2,
      type: 1,
      status: 1,
      enName: 'en',
      chName: '中文',
      seq: 1, // default 1
      description: null,
      uniqueKey: null,
      urlPatternInfos: [{ method: 'GET', uri: '/auth/detail' }],
      frontEndAccessList: '/a/**,/b',
    })
  })

  it('builds method → group → operation options, methods in the usual order', () => {
    const options = catalogueOptions({
      POST: { 权限管理: [{ apiOperationValue: '权限树', urls: ['/auth/tree'] }] },
      GET: { 权限管理: [{ apiOperationValue: '权限详情', urls: ['/auth/detail'] }] },
    })
    expect(options).toEqual([
      {
        value: 'GET',
        label: 'GET',
        children: [
          {
            value: '权限管理',
            label: '权限管理',
            children: [{ value: '0', label: '权限详情（/auth/detail）' }],
          },
        ],
      },
      {
        value: 'POST',
        label: 'POST',
        children: [
          { value: '权限管理', label: '权限管理', children: [{ value: '0', label: '权限树（/auth/tree）' }] },
        ],
      },
    ])
    expect(catalogueOptions(undefined)).toEqual([])
  })
})
