import { useQuery } from '@tanstack/react-query'
import { Badge } from 'antd'
import { AuditOutlined, SafetyCertificateOutlined } from '@ant-design/icons'
import { useNavigate } from 'react-router'
import { routes } from '@amg/contract'
import { useCanCall } from '../../lib/can-call'
import { HeaderButton } from '../../components/header-button'
import { ACCESS_KEY, listRequests } from './api'

/** The header's 审批中心 with how many requests wait for this user (DESIGN.md §20); only for approvers. */
export function ApprovalBadge({ compact }: { compact?: boolean }) {
  const canApprove = useCanCall(routes.accessRequest.approve)
  const navigate = useNavigate()
  const waiting = useQuery({
    queryKey: [...ACCESS_KEY, 'approve', 'count'],
    queryFn: () => listRequests({ box: 'approve', status: 'pending', pageNum: 1, pageSize: 1 }),
    enabled: canApprove,
    refetchInterval: 60_000,
  })
  if (!canApprove) return null
  return (
    <Badge count={waiting.data?.total ?? 0} size="small" offset={[-6, 4]} data-testid="approval-count">
      <HeaderButton
        icon={<AuditOutlined />}
        label="审批中心"
        compact={compact}
        onClick={() => void navigate('/approvalcenter')}
      />
    </Badge>
  )
}

/** The header's 我的权限, every signed-in user's. */
export function MyAccessLink({ compact }: { compact?: boolean }) {
  const navigate = useNavigate()
  return (
    <HeaderButton
      icon={<SafetyCertificateOutlined />}
      label="我的权限"
      compact={compact}
      onClick={() => void navigate('/myaccess')}
    />
  )
}

/** Both, for the header (loaded on its own, out of the first download). */
export function HeaderAccessLinks({ compact }: { compact?: boolean }) {
  return (
    <>
      <MyAccessLink compact={compact} />
      <ApprovalBadge compact={compact} />
    </>
  )
}
