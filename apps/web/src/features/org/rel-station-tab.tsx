import { Typography } from 'antd'
import { useSearchParams } from 'react-router'
import { MSG, routes } from '@amg/contract'
import { LinkPanel } from '../../components'
import {
  fetchOrgPositions,
  fetchUnlinkedStations,
  linkStations,
  removePositions,
  type OrgPositionRow,
  type StationCandidate,
} from './api'
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
      <LinkPanel<OrgPositionRow, StationCandidate>
        key={id}
        queryKey={['org', 'positions', id]}
        columns={[
          { title: '职位ID', dataIndex: 'stationId', key: 'stationId', width: 120 },
          { title: '职位名称', dataIndex: 'stationName', key: 'stationName' },
        ]}
        searchPlaceholder="按职位名称搜索"
        fetchLinked={({ pageNum, pageSize, keyword }) =>
          fetchOrgPositions({ orgId: id, pageNum, pageSize, stationName: keyword })
        }
        unlink={(row) => removePositions([row.id])}
        unlinkConfirm={MSG.confirmUnlinkStation}
        linkButtonText="关联职位"
        candidateColumns={[
          { title: '职位ID', dataIndex: 'id', key: 'id', width: 80 },
          { title: '职位名称', dataIndex: 'stationName', key: 'stationName' },
        ]}
        candidatePlaceholder="按职位名称搜索"
        fetchCandidates={(keyword) => fetchUnlinkedStations(id, keyword)}
        link={(ids) => linkStations(id, ids)}
        calls={{
          link: [routes.station.simpleList, routes.position.batchInsert],
          unlink: [routes.position.delete],
        }}
      />
    </>
  )
}
