import { MSG, USER_STATUS, USER_STATUS_LABEL, type UserListRow } from '@amg/contract'
import { Modal, Switch } from 'antd'
import { useState } from 'react'
import { toastSuccess } from '../../lib/feedback'
import { setUserStatus } from './api'
import { UserStatusTag } from './common'

/**
 * The row's status as a switch (正常/冻结), sending the same PUT /user/update as the edit screen
 * (with the user's stored fields, so mobile and realName stay). Freezing asks first; one's own row
 * cannot be frozen (the server refuses too).
 */
export function useStatusSwitch(
  meId: number | undefined,
  refresh: () => Promise<unknown>,
  mayChange: boolean,
) {
  const [modal, modalHolder] = Modal.useModal()
  const [pending, setPending] = useState<number | null>(null)

  const apply = async (row: UserListRow, status: number) => {
    setPending(row.id)
    try {
      await setUserStatus(row.id, status)
      toastSuccess(MSG.updated)
      await refresh()
    } catch {
      // the HTTP layer has shown why
    } finally {
      setPending(null)
    }
  }

  const render = (row: UserListRow) => {
    // one who may not change it reads the status
    if (!mayChange || row.writable === false) return <UserStatusTag status={row.status} />
    const active = row.status === USER_STATUS.active
    return (
      <Switch
        size="small"
        aria-label={`${row.nickName} 的状态`}
        checked={active}
        checkedChildren={USER_STATUS_LABEL[USER_STATUS.active]}
        unCheckedChildren={USER_STATUS_LABEL[USER_STATUS.frozen]}
        loading={pending === row.id}
        disabled={row.id === meId}
        title={row.id === meId ? '不能冻结自己' : undefined}
        onChange={(on) => {
          if (on) return void apply(row, USER_STATUS.active)
          modal.confirm({
            title: `确定要冻结用户 ${row.nickName} 吗？`,
            content: '冻结后该用户将无法登录，已登录的会话随即结束。',
            okText: '确定',
            cancelText: '取消',
            onOk: () => void apply(row, USER_STATUS.frozen),
          })
        }}
      />
    )
  }
  return { render, holder: modalHolder }
}
