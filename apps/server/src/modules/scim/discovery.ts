import type { FastifyInstance } from 'fastify'
import { SCIM_MSG, ScimError } from './errors'
import { LIST_SCHEMA, SCIM_MEDIA, SCIM_PREFIX } from './http'
import { scimRoute } from './scim-route'
import { ENTERPRISE_SCHEMA, USER_SCHEMA } from './user-resource'
import { GROUP_SCHEMA } from './group-resource'

/** Discovery (RFC 7644 §4): what this server supports, its resource types and their schemas. */

const SPC_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'
const RT_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType'
const SCHEMA_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema'

const attr = (
  name: string,
  type: string,
  extra: {
    multiValued?: boolean
    required?: boolean
    caseExact?: boolean
    mutability?: string
    returned?: string
    uniqueness?: string
    description: string
    subAttributes?: unknown[]
  },
) => ({
  name,
  type,
  multiValued: extra.multiValued ?? false,
  description: extra.description,
  required: extra.required ?? false,
  caseExact: extra.caseExact ?? false,
  mutability: extra.mutability ?? 'readWrite',
  returned: extra.returned ?? 'default',
  uniqueness: extra.uniqueness ?? 'none',
  ...(extra.subAttributes ? { subAttributes: extra.subAttributes } : {}),
})

const schemaMeta = (base: string, id: string) => ({
  resourceType: 'Schema',
  location: `${base}${SCIM_PREFIX}/Schemas/${id}`,
})

function schemas(base: string) {
  const user = {
    schemas: [SCHEMA_SCHEMA],
    id: USER_SCHEMA,
    name: 'User',
    description: '用户',
    attributes: [
      attr('userName', 'string', { required: true, uniqueness: 'server', description: '用户昵称（登录名）' }),
      attr('name', 'complex', {
        description: '姓名',
        subAttributes: [
          attr('formatted', 'string', { description: '真实姓名' }),
          attr('familyName', 'string', { description: '姓（只写，与名合成真实姓名）' }),
          attr('givenName', 'string', { description: '名（只写，与姓合成真实姓名）' }),
        ],
      }),
      attr('displayName', 'string', { description: '真实姓名' }),
      attr('active', 'boolean', { description: '正常（true）或冻结（false）' }),
      attr('password', 'string', {
        mutability: 'writeOnly',
        returned: 'never',
        description: '密码（须符合密码策略）',
      }),
      attr('phoneNumbers', 'complex', {
        multiValued: true,
        description: '手机号（type 为 work 的一项）',
        subAttributes: [
          attr('value', 'string', { description: '手机号' }),
          attr('type', 'string', { description: 'work' }),
          attr('primary', 'boolean', { description: '主号码' }),
        ],
      }),
    ],
    meta: schemaMeta(base, USER_SCHEMA),
  }
  const group = {
    schemas: [SCHEMA_SCHEMA],
    id: GROUP_SCHEMA,
    name: 'Group',
    description: '用户组',
    attributes: [
      attr('displayName', 'string', { required: true, uniqueness: 'server', description: '用户组名称' }),
      attr('members', 'complex', {
        multiValued: true,
        description: '成员',
        subAttributes: [
          attr('value', 'string', { mutability: 'immutable', description: '用户 id' }),
          attr('display', 'string', { mutability: 'readOnly', description: '用户昵称' }),
          attr('type', 'string', { mutability: 'immutable', description: 'User' }),
          attr('$ref', 'reference', { mutability: 'immutable', description: '用户地址' }),
        ],
      }),
    ],
    meta: schemaMeta(base, GROUP_SCHEMA),
  }
  return [user, group]
}

export function scimDiscoveryRoutes(app: FastifyInstance) {
  const base = app.ctx.config.publicUrl
  const json = <T>(reply: { type(t: string): unknown }, body: T) => {
    reply.type(SCIM_MEDIA)
    return Promise.resolve(body)
  }

  scimRoute(app, 'GET', '/ServiceProviderConfig', 'user', 'SCIM 服务配置', (_req, reply) =>
    json(reply, {
      schemas: [SPC_SCHEMA],
      documentationUri: `${base}/api/docs`,
      patch: { supported: true },
      bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
      filter: { supported: true, maxResults: 500 },
      changePassword: { supported: true },
      sort: { supported: false },
      etag: { supported: true },
      authenticationSchemes: [
        {
          type: 'oauthbearertoken',
          name: 'API 密钥',
          description: 'Authorization: Bearer ak_…（持有 scim 权限的账号的 API 密钥）',
          primary: true,
        },
      ],
      meta: {
        resourceType: 'ServiceProviderConfig',
        location: `${base}${SCIM_PREFIX}/ServiceProviderConfig`,
      },
    }),
  )

  const resourceTypes = [
    {
      schemas: [RT_SCHEMA],
      id: 'User',
      name: 'User',
      endpoint: '/Users',
      description: '用户',
      schema: USER_SCHEMA,
      schemaExtensions: [{ schema: ENTERPRISE_SCHEMA, required: false }],
      meta: { resourceType: 'ResourceType', location: `${base}${SCIM_PREFIX}/ResourceTypes/User` },
    },
    {
      schemas: [RT_SCHEMA],
      id: 'Group',
      name: 'Group',
      endpoint: '/Groups',
      description: '用户组',
      schema: GROUP_SCHEMA,
      meta: { resourceType: 'ResourceType', location: `${base}${SCIM_PREFIX}/ResourceTypes/Group` },
    },
  ]
  const list = <T>(items: T[]) => ({
    schemas: [LIST_SCHEMA],
    totalResults: items.length,
    startIndex: 1,
    itemsPerPage: items.length,
    Resources: items,
  })
  const one = <T extends { id: string }>(items: T[], id: string) => {
    const found = items.find((i) => i.id === id)
    if (!found) throw new ScimError(404, undefined, SCIM_MSG.notFound)
    return found
  }

  scimRoute(app, 'GET', '/ResourceTypes', 'user', 'SCIM 资源类型', (_req, reply) =>
    json(reply, list(resourceTypes)),
  )
  scimRoute<{ id: string }>(app, 'GET', '/ResourceTypes/:id', 'user', 'SCIM 资源类型', async (req, reply) =>
    json(reply, one(resourceTypes, req.params.id)),
  )
  scimRoute(app, 'GET', '/Schemas', 'user', 'SCIM 资源模式', (_req, reply) =>
    json(reply, list(schemas(base))),
  )
  scimRoute<{ id: string }>(app, 'GET', '/Schemas/:id', 'user', 'SCIM 资源模式', async (req, reply) =>
    json(reply, one(schemas(base), req.params.id)),
  )
}
