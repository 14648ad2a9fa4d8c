import { Tag, Typography } from 'antd'
import { useSearchParams } from 'react-router'
import { STATUS_LABEL } from '@amg/contract'

/** What the position screens share: the list's path, the status tag, the links title, the query id. */

export const POSITION_LIST_PATH = '/positionmanage'

/** SPEC.md §3: status 1 enabled, anything else disabled. */
export const statusTag = (status: number) =>
  status === 1 ? <Tag color="green">{STATUS_LABEL[1]}</Tag> : <Tag color="default">{STATUS_LABEL[2]}</Tag>

/** '修改{department-jobtitle}的关联关系': the title of the links screen (SPEC.md §2). */
export const linksTitle = (name: string) => `修改${name}的关联关系`

/** The position of the links screen: the query's id. */
export function usePositionId(): number | undefined {
  const [params] = useSearchParams()
  const id = Number(params.get('id'))
  return Number.isInteger(id) && id > 0 ? id : undefined
}

export function MissingPosition() {
  return (
    <Typography.Text type="secondary" style={{ display: 'block', padding: 24 }}>
      未指定岗位
    </Typography.Text>
  )
}
