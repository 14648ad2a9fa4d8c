import { Alert, Card, Spin, Typography } from 'antd'
import { UnreachableRecord, unreachable } from '../../components/unreachable-record'
import { useSearchParams } from 'react-router'
import { useSession } from '../../lib/session-store'
import { RouteTabs } from '../../lib/ui/route-tabs'
import { numberParam, useOrgDetail } from './common'

/** The edit tabs (base info, department-position links) of the department in the query id. */
export function OrgEditFormPage() {
  const [params] = useSearchParams()
  const id = numberParam(params.get('id'))
  const detail = useOrgDetail(id, { silent: true })
  const blocked = unreachable(detail.error)
  // on a phone the department's full name goes under the title: beside it there is no room
  const mobile = useSession((s) => s.device) === 'mobile'
  const completeName = detail.data ? (
    <Typography.Text type="secondary" data-testid="org-complete-name">
      {detail.data.organizationCompleteName}
    </Typography.Text>
  ) : null
  return (
    <Card
      size="small"
      title={
        <Typography.Title level={4} style={{ margin: 0 }}>
          修改部门
        </Typography.Title>
      }
      extra={mobile ? null : completeName}
    >
      {mobile && completeName ? <div style={{ marginBottom: 8 }}>{completeName}</div> : null}
      {id === undefined ? (
        <Alert type="warning" showIcon title="请在左侧部门树中选择要修改的部门" />
      ) : blocked ? (
        <UnreachableRecord error={blocked} backTo="/orgmanage" backLabel="返回部门管理" />
      ) : detail.isPending ? (
        <Spin style={{ display: 'block', margin: '24px auto' }} />
      ) : (
        <RouteTabs
          base="/orgmanage/editform"
          tabs={[
            { key: 'orgbaseinfo', label: '基本信息' },
            { key: 'orgrelstation', label: '关联职位' },
          ]}
        />
      )}
    </Card>
  )
}
