import { Type } from '@sinclair/typebox'
import { Envelope, NullData } from '../schemas/common'
import {
  DirectoryRun,
  DirectorySyncBody,
  LdapSettingsBody,
  LdapSettingsData,
  LdapTestResult,
} from '../schemas/directory'
import { ImportStarted } from '../schemas/import'
import { bindSchemas } from './route'
import { directoryRoutes } from './directory'

export const directorySchemas = {
  getLdap: { response: { 200: Envelope(LdapSettingsData) } },
  putLdap: { body: LdapSettingsBody, response: { 200: NullData } },
  testLdap: { body: LdapSettingsBody, response: { 200: Envelope(LdapTestResult) } },
  sync: { body: DirectorySyncBody, response: { 200: Envelope(ImportStarted) } },
  runs: { response: { 200: Envelope(Type.Array(DirectoryRun)) } },
}

export const directoryApi = bindSchemas(directoryRoutes, directorySchemas)
