import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { AMS_SERVICE_KEY } from '@amg/contract'
import { Alert, Card, Col, Empty, Flex, Row, Select, Space, Spin } from 'antd'
import { useState } from 'react'
import { AUTHZ_KEY, fetchEffective, fetchTreeShape } from './api'
import { useServiceChoices } from './service-choices'
import { CallTester } from './call-tester'
import { EffectiveTree } from './effective-tree'
import { RoleSources } from './role-sources'
import type { PickedUser } from './user-picker'

/**
 * One user's power (GET /authz/effective): their roles and where each comes from, the nodes they
 * hold, and a tester. The parent renders it per user (key), so nothing of the last user stays.
 */
export function UserAnalysis({ user }: { user: PickedUser }) {
  // whose nodes the tree shows: a node counts in its own service only (DESIGN.md §10a)
  const [service, setService] = useState<string>(AMS_SERVICE_KEY)
  const services = useServiceChoices()
  const effective = useQuery({
    queryKey: [...AUTHZ_KEY, 'effective', user.id, service],
    queryFn: () => fetchEffective(user.id, service),
    placeholderData: keepPreviousData,
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
          <Card
            size="small"
            title="有效权限"
            extra={
              <Space size={8}>
                <Select
                  size="small"
                  aria-label="有效权限的服务"
                  value={service}
                  options={services}
                  onChange={setService}
                  popupMatchSelectWidth={false}
                  style={{ width: 160 }}
                />
                <span>{`共 ${nodes.length} 项`}</span>
              </Space>
            }
            style={{ height: '100%' }}
          >
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
