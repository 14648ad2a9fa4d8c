import { useQuery } from '@tanstack/react-query'
import { Alert, Card, Col, Empty, Flex, Row, Spin } from 'antd'
import { AUTHZ_KEY, fetchEffective, fetchTreeShape } from './api'
import { CallTester } from './call-tester'
import { EffectiveTree } from './effective-tree'
import { RoleSources } from './role-sources'
import type { PickedUser } from './user-picker'

/**
 * One user's power (GET /authz/effective): their roles and where each comes from, the nodes they
 * hold, and a tester. The parent renders it per user (key), so nothing of the last user stays.
 */
export function UserAnalysis({ user }: { user: PickedUser }) {
  const effective = useQuery({
    queryKey: [...AUTHZ_KEY, 'effective', user.id],
    queryFn: () => fetchEffective(user.id),
  })
  const shape = useQuery({ queryKey: [...AUTHZ_KEY, 'tree'], queryFn: fetchTreeShape, retry: false })
  const frozen = user.status === 2

  if (effective.isPending)
    return (
      <Flex justify="center" style={{ padding: 48 }}>
        <Spin />
      </Flex>
    )
  if (effective.isError)
    // the HTTP layer has shown the failure (e.g. 用户不存在) as a toast already
    return <Empty description={effective.error.message} />

  const { roles, nodes, superAdmin } = effective.data
  return (
    <Flex vertical gap={16}>
      {superAdmin ? <Alert type="info" showIcon title="该用户是超级管理员：任何调用都被允许。" /> : null}
      {frozen ? <Alert type="warning" showIcon title="该用户已冻结：不能登录，也不能调用任何接口。" /> : null}
      <Card size="small" title="角色与来源" extra={`共 ${roles.length} 个角色`}>
        <RoleSources roles={roles} />
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={10}>
          <Card size="small" title="有效权限" extra={`共 ${nodes.length} 项`} style={{ height: '100%' }}>
            {shape.isPending ? (
              <Spin />
            ) : (
              <EffectiveTree tree={shape.data ?? []} effective={effective.data} />
            )}
          </Card>
        </Col>
        <Col xs={24} xl={14}>
          <Card size="small" title="权限测试" style={{ height: '100%' }}>
            <CallTester userId={user.id} frozen={frozen} />
          </Card>
        </Col>
      </Row>
    </Flex>
  )
}
