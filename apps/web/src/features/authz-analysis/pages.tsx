import { useQuery } from '@tanstack/react-query'
import { Empty, Flex, Tabs, Typography } from 'antd'
import { useState } from 'react'
import { useSearchParams } from 'react-router'
import { Screen } from '../../lib/ui/screen'
import { AUTHZ_KEY, fetchUserDetail } from './api'
import { UserAnalysis } from './user-analysis'
import { UserPicker, type PickedUser } from './user-picker'
import { WhoCanTab } from './who-can-tab'

const USER_TAB = 'user'
const WHO_CAN_TAB = 'whocan'

const positiveId = (raw: string | null) => {
  const n = Number(raw)
  return raw && Number.isSafeInteger(n) && n > 0 ? n : null
}

/**
 * 权限分析 (DESIGN.md §10), /authzanalysis?userId=&tab=: one user's roles, held nodes and a
 * tester, or who may make a call. The user and the tab live in the URL, so a link opens them.
 */
export function AuthzAnalysisPage() {
  const [params, setParams] = useSearchParams()
  const userId = positiveId(params.get('userId'))
  const tab = params.get('tab') === WHO_CAN_TAB ? WHO_CAN_TAB : USER_TAB
  // what the picker or the who-can list already knows of the user, shown until the detail arrives
  const [picked, setPicked] = useState<PickedUser | null>(null)
  const detail = useQuery({
    queryKey: [...AUTHZ_KEY, 'user', userId],
    queryFn: () => fetchUserDetail(userId!),
    enabled: userId !== null,
    retry: false,
  })
  const user: PickedUser | null =
    userId === null
      ? null
      : (detail.data ?? (picked?.id === userId ? picked : { id: userId, nickName: `用户 #${userId}` }))

  const open = (next: { user?: PickedUser | null; tab?: string }) => {
    if (next.user !== undefined) setPicked(next.user)
    setParams((prev) => {
      const query = new URLSearchParams(prev)
      if (next.user !== undefined) {
        if (next.user) query.set('userId', String(next.user.id))
        else query.delete('userId')
      }
      if (next.tab === USER_TAB) query.delete('tab')
      else if (next.tab) query.set('tab', next.tab)
      return query
    })
  }

  const userTab = (
    <Flex vertical gap={16}>
      <Flex wrap gap={8} align="center">
        <Typography.Text>用户：</Typography.Text>
        <UserPicker value={user} onChange={(u) => open({ user: u })} />
      </Flex>
      {user ? (
        <UserAnalysis key={user.id} user={user} />
      ) : (
        <Empty description="选择一个用户，查看其角色来源、有效权限，并测试其能否调用某个接口" />
      )}
    </Flex>
  )

  return (
    <Screen title="权限分析">
      <Tabs
        activeKey={tab}
        onChange={(key) => open({ tab: key })}
        items={[
          { key: USER_TAB, label: '用户权限', children: userTab },
          {
            key: WHO_CAN_TAB,
            label: '谁能访问',
            children: <WhoCanTab onAnalyse={(u) => open({ user: u, tab: USER_TAB })} />,
          },
        ]}
      />
    </Screen>
  )
}
