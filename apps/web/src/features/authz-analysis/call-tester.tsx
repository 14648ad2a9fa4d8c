import { ExperimentOutlined } from '@ant-design/icons'
import { useMutation } from '@tanstack/react-query'
import { AMS_SERVICE_KEY, type AuthzExplainResult } from '@amg/contract'
import { Alert, Flex, Typography } from 'antd'
import { explainCall, type CallQuestion } from './api'
import { CALL_HINT, CallForm } from './call-form'
import { ChainList } from './chain-list'
import { ScopeSummary } from './scope-summary'

function Verdict({
  call,
  result,
  frozen,
}: {
  call: CallQuestion
  result: AuthzExplainResult
  frozen: boolean
}) {
  const asked = `${call.service === AMS_SERVICE_KEY ? '' : `[${call.service}] `}${call.method} ${call.path}`
  if (!result.allowed)
    return (
      <Alert
        type="error"
        showIcon
        data-testid="verdict"
        title="拒绝"
        description={
          frozen
            ? `${asked}：该用户已冻结，不能调用任何接口。`
            : `${asked}：该用户的角色中没有所选服务的权限点的后端规则匹配此调用。`
        }
      />
    )
  return (
    <Alert
      type="success"
      showIcon
      data-testid="verdict"
      title="允许"
      description={`${asked}：共 ${result.grants.length} 条授权链${result.superAdmin ? '（超级管理员拥有全部权限）' : ''}。`}
    />
  )
}

/**
 * Tries a call for the user (POST /authz/explain): 允许 or 拒绝, and every chain that allows it.
 * The parent renders it per user, so a new user starts with an empty answer.
 */
export function CallTester({ userId, frozen }: { userId: number; frozen: boolean }) {
  // each test is a new mutation: its data and variables always belong together
  const explain = useMutation({ mutationFn: (call: CallQuestion) => explainCall(userId, call) })
  return (
    <Flex vertical gap={12}>
      <CallForm
        name="call-test"
        submitText="测试"
        submitIcon={<ExperimentOutlined />}
        loading={explain.isPending}
        onSubmit={(call) => explain.mutate(call)}
      />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {CALL_HINT}
      </Typography.Text>
      {explain.data && explain.variables ? (
        <>
          <Verdict call={explain.variables} result={explain.data} frozen={frozen} />
          <ScopeSummary result={explain.data} />
          {explain.data.grants.length ? <ChainList grants={explain.data.grants} /> : null}
        </>
      ) : null}
    </Flex>
  )
}
