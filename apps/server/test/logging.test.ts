import { describe, expect, it, inject } from 'vitest'
import fs from 'node:fs'
import { buildApp } from '../src/app'
import { loadConfig } from '../src/config'
import { openDatabase } from '../src/db/connection'
import { TEST_ADMIN_PASSWORD } from './helpers/constants'

describe.skipIf(!!inject('pgTemplate'))('the request log', () => {
  it('records requests but never passwords or tokens', async () => {
    const database = await openDatabase({
      memory: true,
      loadDataDir: new Blob([fs.readFileSync(inject('pgliteTemplate'))]),
    })
    const lines: string[] = []
    const app = await buildApp({
      config: loadConfig({}, { logLevel: 'debug' }),
      database,
      logStream: { write: (line) => lines.push(line) },
    })
    try {
      const login = await app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { nickName: 'admin', password: TEST_ADMIN_PASSWORD },
      })
      const token = login.json().data.token as string
      await app.inject({ method: 'GET', url: '/api/user/current', headers: { 'x-auth-token': token } })
      await app.inject({
        method: 'PUT',
        url: '/api/user/password',
        headers: { 'x-auth-token': token },
        payload: { oldPassword: TEST_ADMIN_PASSWORD, newPassword: 'weak' },
      })
      const log = lines.join('')
      expect(log).toContain('/api/login')
      expect(log).toContain('/api/user/current')
      expect(log).not.toContain(TEST_ADMIN_PASSWORD)
      expect(log).not.toContain(token)
    } finally {
      await app.close()
      await database.close()
    }
  })
})
