import { FILE_DOWNLOAD_ALL_CODE } from '@amg/contract'

/** Not a console route: the marker that makes file:download-all's power differ from file:download's. */
export const FILE_DOWNLOAD_ALL_FRONT_END = '/file/download-all'

/** Not a console route: the marker of the `scim` node's power (the SCIM server is outside /api). */
export const SCIM_FRONT_END = '/scim/v2'

/**
 * The permission tree seeded at first start (DESIGN.md §5): a node per console page with its
 * front-end path patterns, and a button node (type 3) per action with the back-end calls it makes.
 * Back-end entries are "METHOD /path" without the /api prefix.
 */
export interface SeedAuthNode {
  code: string
  chName: string
  enName: string
  type: 1 | 2 | 3
  frontEnd?: string[]
  api?: string[]
  children?: SeedAuthNode[]
}

const button = (
  code: string,
  chName: string,
  enName: string,
  api: string[],
  frontEnd: string[] = [],
): SeedAuthNode => ({
  code,
  chName,
  enName,
  type: 3,
  api,
  frontEnd,
})

/** A console page (type 2): its front-end paths, the calls it makes to show itself, its buttons. */
const page = (
  code: string,
  chName: string,
  enName: string,
  frontEnd: string[],
  api: string[],
  children?: SeedAuthNode[],
): SeedAuthNode => ({ code, chName, enName, type: 2, frontEnd, api, children })

export const SEED_AUTH_TREE: SeedAuthNode[] = [
  {
    code: 'access',
    chName: '权限管理',
    enName: 'access',
    type: 1,
    children: [
      page(
        'user',
        '用户管理',
        'user',
        ['/usermanage', '/usermanage/userinfo', '/usermanage/userinfo/userbaseinfo'],
        ['POST /user/list', 'GET /user/detail'],
        [
          button('user:add', '新建用户', 'userAdd', ['POST /user/insert'], ['/usermanage/adduser']),
          button('user:edit', '修改用户', 'userEdit', ['PUT /user/update']),
          button('user:delete', '删除用户', 'userDelete', ['DELETE /user/delete']),
          button('user:mfa-reset', '重置两步验证', 'userMfaReset', ['DELETE /user/mfa/reset']),
          button('user:import', '导入用户', 'userImport', [
            'GET /user/import/template',
            'POST /user/import',
            'GET /import/job',
            'GET /import/result',
          ]),
          button('user:export', '导出用户', 'userExport', ['GET /user/export']),
          button(
            'user:role',
            '用户关联角色',
            'userRole',
            [
              'POST /rel/user/rolelist',
              'POST /role/namelist',
              'PUT /rel/user-rel-role',
              'PUT /rel/user-un-rel-role',
            ],
            ['/usermanage/userinfo/roleformbyuser'],
          ),
          button(
            'user:group',
            '用户关联用户组',
            'userGroup',
            [
              'POST /rel/user/grouplist',
              'POST /user_groups/namelist',
              'PUT /rel/user-rel-groups',
              'PUT /rel/user-un-rel-groups',
            ],
            ['/usermanage/userinfo/usergroupformbyuser'],
          ),
          button(
            'user:position',
            '用户关联岗位',
            'userPosition',
            [
              'POST /rel/user/positionlist',
              'POST /position/namelist',
              'GET /org/tree',
              'POST /station/list/simple',
              'PUT /rel/user-rel-position',
              'PUT /rel/user-un-rel-position',
            ],
            ['/usermanage/userinfo/positionformbyuser'],
          ),
        ],
      ),
      page(
        'role',
        '角色管理',
        'role',
        ['/rolemanage', '/rolemanage/roleinfo'],
        ['POST /role/listall', 'GET /role/detail', 'POST /auth/tree'],
        [
          button('role:add', '新建角色', 'roleAdd', ['POST /role/insert'], ['/rolemanage/addrole']),
          button('role:edit', '修改角色', 'roleEdit', ['PUT /role/update', 'POST /authz/role-impact']),
          button('role:delete', '删除角色', 'roleDelete', ['DELETE /role/delete']),
          button('role:export', '导出角色', 'roleExport', ['GET /role/export']),
        ],
      ),
      page(
        'adminrole',
        '内置角色管理',
        'adminRole',
        ['/adminrolemanage', '/adminrolemanage/adminroleinfo'],
        ['POST /role/listall', 'GET /role/detail', 'POST /auth/tree'],
        [
          button(
            'adminrole:add',
            '新建内置角色',
            'adminRoleAdd',
            ['POST /role/admin/insert'],
            ['/adminrolemanage/adminroleadd'],
          ),
          button('adminrole:edit', '修改内置角色', 'adminRoleEdit', [
            'PUT /role/admin/update',
            'POST /authz/role-impact',
          ]),
          button('adminrole:delete', '删除内置角色', 'adminRoleDelete', ['DELETE /role/admin/delete']),
        ],
      ),
      page(
        'usergroup',
        '用户组管理',
        'userGroup',
        ['/usergroupmanage', '/usergroupmanage/usergroupinfo'],
        [
          'POST /user_groups/list',
          'GET /user_groups/detail',
          'POST /rel/groups/rolelist',
          'GET /rel/groups/userlist',
        ],
        [
          button(
            'usergroup:add',
            '新建用户组',
            'userGroupAdd',
            ['POST /user_groups/insert', 'POST /role/namelist', 'POST /user/list'],
            ['/usergroupmanage/addusergroup'],
          ),
          button('usergroup:edit', '修改用户组', 'userGroupEdit', [
            'PUT /user_groups/update',
            'PATCH /user_groups/enable',
          ]),
          button('usergroup:delete', '删除用户组', 'userGroupDelete', ['DELETE /user_groups/delete']),
          button('usergroup:export', '导出用户组', 'userGroupExport', ['GET /user_groups/export']),
          button('usergroup:link', '用户组关联', 'userGroupLink', [
            'PUT /rel/user-groups-rel-role',
            'PUT /rel/user-groups-un-rel-role',
            'PUT /rel/user-groups-rel-user',
            'PUT /rel/user-groups-un-rel-user',
            'POST /role/namelist',
            'POST /user/list',
            'POST /user/namelist',
          ]),
        ],
      ),
      page(
        'auth',
        '权限点管理',
        'auth',
        ['/authmanage', '/authmanage/addform', '/authmanage/editform'],
        ['POST /auth/tree', 'GET /auth/detail', 'GET /auth/get-all-back-end'],
        [
          button('auth:add', '新建权限', 'authAdd', ['POST /auth/insert']),
          button('auth:edit', '修改权限', 'authEdit', ['PUT /auth/update']),
          button('auth:delete', '删除权限', 'authDelete', ['DELETE /auth/delete']),
        ],
      ),
      {
        // DESIGN.md §10a: the services behind gateways, each owning its own permission subtree
        code: 'service',
        chName: '应用管理',
        enName: 'service',
        type: 2,
        frontEnd: ['/servicemanage'],
        api: ['POST /service/list'],
        children: [
          // the tree: a new service may take over an existing top-level node as its root
          button('service:add', '新建服务', 'serviceAdd', ['POST /service/insert', 'POST /auth/tree']),
          button('service:edit', '修改服务', 'serviceEdit', ['PUT /service/update']),
          button('service:delete', '删除服务', 'serviceDelete', ['DELETE /service/delete']),
          // DESIGN.md §16: an application's single sign-on settings and the provider's signing keys
          button('service:oidc', '单点登录设置', 'serviceOidc', [
            'GET /service/oidc',
            'PUT /service/oidc',
            'POST /service/oidc/rotate-secret',
            'DELETE /service/oidc',
          ]),
          button('service:oidc-keys', '轮换签名密钥', 'serviceOidcKeys', ['POST /service/oidc/rotate-keys']),
        ],
      },
      {
        // DESIGN.md §16: API keys act as their user; making one is a change to that user (§6a)
        code: 'apikey',
        chName: 'API 密钥',
        enName: 'apikey',
        type: 2,
        frontEnd: ['/apikeymanage'],
        api: ['POST /apikey/list'],
        children: [
          button('apikey:add', '新建 API 密钥', 'apiKeyAdd', ['POST /apikey/insert', 'POST /user/namelist']),
          button('apikey:revoke', '吊销 API 密钥', 'apiKeyRevoke', ['DELETE /apikey/revoke']),
        ],
      },
    ],
  },
  {
    code: 'organization',
    chName: '组织管理',
    enName: 'organization',
    type: 1,
    children: [
      page(
        'org',
        '部门管理',
        'org',
        ['/orgmanage', '/orgmanage/orgaddform', '/orgmanage/orgeditform', '/orgmanage/editform/**'],
        ['GET /org/tree', 'GET /org/detail', 'POST /position/list/for/org', 'POST /station/list/simple'],
        [
          button('org:add', '新建部门', 'orgAdd', ['POST /org/insert']),
          button('org:edit', '修改部门', 'orgEdit', [
            'PUT /org/update',
            'PUT /position/batch/insert',
            'DELETE /position/delete',
          ]),
          button('org:delete', '删除部门', 'orgDelete', ['DELETE /org/delete']),
          button('org:import', '导入部门', 'orgImport', [
            'GET /org/import/template',
            'POST /org/import',
            'GET /import/job',
            'GET /import/result',
          ]),
        ],
      ),
      page(
        'station',
        '职位管理',
        'station',
        ['/stationmanage', '/stationmanage/viewstation'],
        ['POST /station/list', 'GET /station/detail', 'GET /org/tree'],
        [
          button(
            'station:add',
            '新建职位',
            'stationAdd',
            ['POST /station/insert'],
            ['/stationmanage/addstation'],
          ),
          button(
            'station:edit',
            '修改职位',
            'stationEdit',
            ['PUT /station/update'],
            ['/stationmanage/editstation'],
          ),
          button('station:delete', '删除职位', 'stationDelete', ['DELETE /station/delete']),
          button('station:export', '导出职位', 'stationExport', ['GET /station/export']),
        ],
      ),
      page(
        'position',
        '岗位管理',
        'position',
        ['/positionmanage', '/positionmanage/positioninfo', '/positionmanage/positioninfo/**'],
        [
          'POST /position/list',
          'GET /org/tree',
          'POST /station/list/simple',
          'POST /rel/position/rolelist',
          'GET /rel/position/userlist',
        ],
        [
          button('position:enable', '启用/禁用岗位', 'positionEnable', ['PATCH /position/enable']),
          button('position:delete', '删除岗位', 'positionDelete', ['DELETE /position/delete']),
          button('position:export', '导出岗位', 'positionExport', ['GET /position/export']),
          button('position:link', '岗位关联', 'positionLink', [
            'PUT /rel/position-rel-role',
            'PUT /rel/position-un-rel-role',
            'PUT /rel/position-rel-user',
            'PUT /rel/position-un-rel-user',
            'POST /role/namelist',
            'POST /user/list',
            'POST /user/namelist',
          ]),
        ],
      ),
    ],
  },
  {
    code: 'file',
    chName: '文件管理',
    enName: 'file',
    type: 1,
    children: [
      button('file:upload', '上传文件', 'fileUpload', ['POST /file-manage/upload-one-step']),
      button('file:download', '下载文件', 'fileDownload', ['GET /file-manage/download']),
      // The same call as file:download; the file service tells "own files" from "all" by this code.
      // The front-end entry names no page: it gives the node power of its own, so that holding
      // file:download alone does not cover it and cannot grant it (DESIGN.md §6a).
      button(
        FILE_DOWNLOAD_ALL_CODE,
        '下载所有人的文件',
        'fileDownloadAll',
        ['GET /file-manage/download'],
        [FILE_DOWNLOAD_ALL_FRONT_END],
      ),
    ],
  },
  {
    code: 'monitor',
    chName: '系统监控',
    enName: 'monitor',
    type: 1,
    children: [
      page(
        'operlog',
        '操作日志',
        'operationLog',
        ['/operlog'],
        ['POST /log/operation/list', 'GET /log/operation/detail'],
        [button('operlog:export', '导出操作日志', 'operationLogExport', ['GET /log/operation/export'])],
      ),
      page('loginlog', '登录日志', 'loginLog', ['/loginlog'], ['POST /log/login/list']),
      page(
        'online',
        '在线用户',
        'onlineSessions',
        ['/online'],
        ['POST /session/online/list'],
        [button('online:revoke', '强制下线', 'onlineRevoke', ['DELETE /session/online/revoke'])],
      ),
      {
        // DESIGN.md §17: who hears of changes. Under 系统监控 beside the logs: like them it watches what
        // the system does rather than managing who may do what (docs/decisions.md)
        code: 'webhook',
        chName: 'Webhook 管理',
        enName: 'webhook',
        type: 2,
        frontEnd: ['/webhookmanage'],
        api: ['POST /webhook/list', 'POST /webhook/deliveries'],
        children: [
          button('webhook:add', '新建 Webhook', 'webhookAdd', ['POST /webhook/insert']),
          button('webhook:edit', '修改 Webhook', 'webhookEdit', ['PUT /webhook/update']),
          button('webhook:delete', '删除 Webhook', 'webhookDelete', ['DELETE /webhook/delete']),
          // a new secret is answered to whoever rotates it: a power of its own
          button('webhook:secret', '轮换 Webhook 密钥', 'webhookSecret', ['PUT /webhook/rotate-secret']),
          button('webhook:deliver', '测试与重新投递', 'webhookDeliver', [
            'POST /webhook/test',
            'PUT /webhook/redeliver',
          ]),
          // for a consumer that pulls instead of receiving pushes (a machine account holds just this)
          button('webhook:events', '拉取变更事件', 'webhookEvents', ['GET /events']),
        ],
      },
    ],
  },
  {
    // DESIGN.md §14: how hard the system itself is to get into
    code: 'system',
    chName: '系统管理',
    enName: 'system',
    type: 1,
    children: [
      page(
        'settings',
        '安全设置',
        'securitySettings',
        ['/securitysettings'],
        ['GET /settings/security'],
        [button('settings:security', '修改安全设置', 'securitySettingsEdit', ['PUT /settings/security'])],
      ),
      // DESIGN.md §22: the right to call /scim/v2 at all (each call also needs the permission of what it
      // changes); its marker makes its power differ from nothing, so only a holder may grant it (§6a)
      button('scim', 'SCIM 目录同步接口', 'scim', [], [SCIM_FRONT_END]),
      // DESIGN.md §22: the directory's settings and its sync; the sync's writes still need the
      // caller's power over what they make (docs/decisions.md "Directory sync")
      page(
        'directory',
        '目录同步',
        'directorySync',
        ['/directorysync'],
        ['GET /settings/ldap', 'GET /directory/runs'],
        [
          button('directory:settings', '修改 LDAP 设置', 'directorySettingsEdit', [
            'PUT /settings/ldap',
            'POST /settings/ldap/test',
          ]),
          button('directory:sync', '目录同步', 'directorySyncRun', [
            'POST /directory/sync',
            'GET /import/job',
          ]),
        ],
      ),
    ],
  },
  {
    // DESIGN.md §10: who may do what, and why. Another service's paths go in that service's own
    // subtree (应用管理), as its gateway forwards them (docs/integration.md).
    code: 'analysis',
    chName: '权限分析',
    enName: 'analysis',
    type: 1,
    children: [
      page(
        'authz',
        '权限分析',
        'authz',
        ['/authzanalysis'], // Not check / check-batch: a user checks themselves with a session alone, and checking
        // another user is authz:check's power, which this page's must not cover (DESIGN.md §10a).
        [
          'POST /authz/explain',
          'GET /authz/effective',
          'POST /authz/who-can',
          // the page's user picker, the chosen user's name, the tree its held nodes are drawn in,
          // and the services the tester asks about
          'POST /user/list',
          'GET /user/detail',
          'POST /auth/tree',
          'POST /service/list',
        ],
        [
          button('authz:check', '检查他人权限', 'authzCheck', [
            'POST /authz/check',
            'POST /authz/check-batch',
          ]),
          button('authz:impact', '角色变更影响', 'authzImpact', ['POST /authz/role-impact']),
        ],
      ),
    ],
  },
  {
    // DESIGN.md §21: access reviews (定期权限复核), recommended from each user's use of their roles
    code: 'reviewmenu',
    chName: '权限复核',
    enName: 'reviewMenu',
    type: 1,
    children: [
      page(
        'review',
        '权限复核',
        'review',
        ['/accessreview', '/accessreview/items'],
        // the campaigns, their items, and a user's usage behind each recommendation
        ['POST /review/list', 'POST /review/items', 'GET /authz/usage'],
        [
          // the form's pickers: roles, departments and reviewers
          button('review:add', '新建复核', 'reviewAdd', [
            'POST /review/insert',
            'POST /role/namelist',
            'GET /org/tree',
            'POST /user/namelist',
          ]),
          button('review:decide', '复核决定', 'reviewDecide', ['PUT /review/decide']),
          button('review:close', '关闭并执行', 'reviewClose', ['PUT /review/close']),
          button('review:export', '导出复核结果', 'reviewExport', ['GET /review/export']),
        ],
      ),
    ],
  },
  {
    // DESIGN.md §20: deciding requests and granting eligibility. Asking, one's own requests, one's
    // own eligibilities and activating them (我的权限) need only a session, so no node here.
    code: 'jit',
    chName: '临时授权',
    enName: 'jit',
    type: 1,
    children: [
      page(
        'approval',
        '审批中心',
        'approval',
        ['/approvalcenter'],
        ['POST /access-request/list'],
        [
          button('access-request:approve', '审批权限申请', 'accessRequestApprove', [
            'PUT /access-request/approve',
            'PUT /access-request/reject',
          ]),
        ],
      ),
      page(
        'eligibility',
        '临时授权管理',
        'eligibility',
        ['/eligibilitymanage'],
        ['POST /eligibility/list', 'POST /user/namelist', 'POST /role/namelist'],
        [
          button('eligibility:add', '新建临时授权', 'eligibilityAdd', ['POST /eligibility/insert']),
          button('eligibility:delete', '删除临时授权', 'eligibilityDelete', ['DELETE /eligibility/delete']),
        ],
      ),
    ],
  },
]
