import { Typography } from 'antd'
import { useSearchParams } from 'react-router'
import { OwnerLinkPanel } from '../../components/owner-link-panel'
import { orgStationLinks } from './api'
import { numberParam } from './common'

/** The department's job titles (its positions): search, pages, remove, and a popover to link more. */
export function OrgRelStationTab() {
  const [params] = useSearchParams()
  const id = numberParam(params.get('id'))
  if (id === undefined) return null
  return (
    <>
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        部门职位关联
      </Typography.Title>
      <OwnerLinkPanel
        key={id}
        owner={id}
        links={orgStationLinks}
        queryKey={['org', 'positions', id]}
        columns={[
          { title: '职位ID', dataIndex: 'stationId', key: 'stationId', width: 120 },
          { title: '职位名称', dataIndex: 'stationName', key: 'stationName' },
        ]}
        candidateColumns={[
          { title: '职位ID', dataIndex: 'id', key: 'id', width: 80 },
          { title: '职位名称', dataIndex: 'stationName', key: 'stationName' },
        ]}
        placeholder="按职位名称搜索"
      />
    </>
  )
}
