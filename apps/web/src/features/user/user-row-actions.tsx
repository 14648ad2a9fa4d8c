import { routes, type UserListRow } from '@amg/contract'
import { Button, Space } from 'antd'
import { useNavigate } from 'react-router'
import { DeleteLink } from '../../components/list-screen'
import { authzAnalysisUrl, useCanOpenAuthzAnalysis } from '../../lib/authz-analysis-link'
import { useCanCall } from '../../lib/can-call'
import { deleteUser } from './api'
import { useResetMfa } from './reset-mfa'
import { useResetPassword } from './reset-password'
import { usePasskeyAdmin } from './passkey-admin'

/** The row's delete confirmation names the user (SPEC.md fixes no text for it). */
export const confirmDeleteUser = (nickName: string) => `确定要删除用户 ${nickName} 吗？`

/** Where the list's edit action leads: the base info tab, with mobile and realName shown (isShow). */
export const userInfoUrl = (user: { id: number; nickName: string }) =>
  `/usermanage/userinfo/userbaseinfo?${new URLSearchParams({
    id: String(user.id),
    title: user.nickName,
    isShow: '1',
  }).toString()}`

/**
 * A user row's actions: 修改 (or 查看), 权限分析, 重置密码, 重置两步验证 and 删除. `holder` carries their
 * dialogs and goes into the screen; `width` is the column's.
 */
export function useUserRowActions({
  meId,
  canEdit,
  narrow,
  refresh,
  removeRow,
}: {
  meId: number | undefined
  canEdit: boolean
  narrow: boolean
  refresh: () => Promise<unknown>
  removeRow: (remove: () => Promise<unknown>) => Promise<unknown>
}) {
  const navigate = useNavigate()
  const canAnalyse = useCanOpenAuthzAnalysis()
  const resetPassword = useResetPassword()
  const canResetMfa = useCanCall(routes.mfa.reset)
  const resetMfa = useResetMfa(refresh)
  const passkeys = usePasskeyAdmin()

  const render = (row: UserListRow) => (
    // the common action first, 删除 last (SPEC.md §8: a user cannot delete themselves, so no 删除 on their own row)
    <Space size={0} wrap>
      <Button type="link" size="small" onClick={() => navigate(userInfoUrl(row))}>
        {canEdit && row.writable !== false ? '修改' : '查看'}
      </Button>
      {canAnalyse ? (
        <Button type="link" size="small" onClick={() => navigate(authzAnalysisUrl(row.id))}>
          权限分析
        </Button>
      ) : null}
      {/* a row the server will not let this caller change (a user outside their scope, or stronger than
          them: DESIGN.md §6a, §13) offers only 查看, as the server says on each row */}
      {row.id === meId || row.writable === false ? null : (
        <>
          {/* a service account holds no password to reset; a directory user's is the directory's (DESIGN.md §22) */}
          {canEdit && !row.serviceAccount && row.source !== 'ldap' && (
            <Button type="link" size="small" onClick={() => resetPassword.reset(row)}>
              重置密码
            </Button>
          )}
          {canResetMfa && row.mfaEnabled ? (
            <Button type="link" size="small" onClick={() => resetMfa.reset(row)}>
              重置两步验证
            </Button>
          ) : null}
          {/* DESIGN.md §23: the server decides (power and reach as for 修改用户) */}
          {canEdit ? (
            <Button type="link" size="small" onClick={() => passkeys.open(row)}>
              通行密钥
            </Button>
          ) : null}
          <DeleteLink
            title={confirmDeleteUser(row.nickName)}
            onConfirm={() => removeRow(() => deleteUser(row.id))}
            call={routes.user.delete}
          />
        </>
      )}
    </Space>
  )
  const holder = (
    <>
      {resetPassword.holder}
      {resetMfa.holder}
      {passkeys.holder}
    </>
  )
  // 修改 · 权限分析 · 重置密码 · 删除 on one line at 1280 px; on a phone they wrap in a narrow column
  const width = narrow ? 112 : canAnalyse ? 240 : 180
  return { render, holder, width }
}
