import { ArrowRightOutlined } from '@ant-design/icons'
import type { AuthzGrant } from '@amg/contract'
import { Flex, Typography, theme } from 'antd'
import { chainSteps, chainText } from './format'
import { ViaTag } from './via-tag'

function Step({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <span>
      <Typography.Text type="secondary">{label} </Typography.Text>
      {children}
    </span>
  )
}

/** One chain that allows a call: source → role → node → matching pattern. */
function ChainRow({ grant }: { grant: AuthzGrant }) {
  const { token } = theme.useToken()
  const steps = chainSteps(grant)
  const arrow = <ArrowRightOutlined style={{ color: token.colorTextTertiary }} aria-hidden />
  return (
    <Flex
      wrap
      align="center"
      gap={8}
      data-testid="chain"
      aria-label={chainText(grant)}
      style={{
        padding: `${token.paddingXS}px ${token.paddingSM}px`,
        border: `1px solid ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadius,
      }}
    >
      <ViaTag via={grant.via} />
      {arrow}
      <Step label="角色">
        <Typography.Text strong>{steps.role}</Typography.Text>
      </Step>
      {arrow}
      <Step label="权限点">{steps.node}</Step>
      {arrow}
      <Step label="规则">
        <Typography.Text code>{steps.pattern}</Typography.Text>
      </Step>
    </Flex>
  )
}

/** Every chain of an explain answer, each on its own line. */
export function ChainList({ grants }: { grants: readonly AuthzGrant[] }) {
  return (
    <Flex vertical gap={8} data-testid="chains">
      {grants.map((g, i) => (
        <ChainRow key={i} grant={g} />
      ))}
    </Flex>
  )
}
