import { useQuery } from '@tanstack/react-query'
import type { PositionSimple } from '@amg/contract'
import { Select, Space } from 'antd'
import { useMemo, useState } from 'react'
import { OrgCascader } from '../../components/org-cascader'
import { denyReasonOf } from '../../lib/grantable'
import { positionOptions } from './api'

/** '研发中心-前端组-工程师': the department path and the job title, as the user list shows positions. */
const positionLabel = (p: PositionSimple) => `${p.organizationCompleteName}-${p.stationName}`

/**
 * The new user's positions (DESIGN.md §13): a department cascader narrows the position select (the
 * department and those below it, as the 关联岗位 tab's picker does); the positions chosen stay chosen
 * while another department is looked at. A scoped administrator is offered only positions in scope
 * (the server lists no others); positions carrying roles beyond the caller's power are disabled.
 */
export function NewUserPositions({
  value,
  onChange,
}: {
  value?: number[]
  onChange?: (ids: number[]) => void
}) {
  const [orgId, setOrgId] = useState<number>()
  const positions = useQuery({
    queryKey: ['new-user-positions', orgId ?? null],
    queryFn: () => positionOptions(orgId),
  })
  // labels of chosen positions, kept when the list shown is of another department
  const [known, setKnown] = useState<ReadonlyMap<number, string>>(new Map())
  const options = useMemo(() => {
    const listed = (positions.data ?? []).map((p) => ({
      value: p.id,
      label: positionLabel(p),
      disabled: denyReasonOf(p) !== null,
      title: denyReasonOf(p) ?? undefined,
    }))
    const shown = new Set(listed.map((o) => o.value))
    const kept = (value ?? [])
      .filter((id) => !shown.has(id))
      .map((id) => ({ value: id, label: known.get(id) ?? String(id), disabled: false, title: undefined }))
    return [...kept, ...listed]
  }, [positions.data, value, known])

  return (
    <Space orientation="vertical" style={{ width: '100%' }} size={8}>
      <OrgCascader aria-label="岗位部门" value={orgId} style={{ width: '100%' }} onChange={setOrgId} />
      <Select<number[]>
        aria-label="岗位"
        data-testid="new-user-positions"
        mode="multiple"
        placeholder="请选择岗位"
        allowClear
        showSearch={{ optionFilterProp: 'label' }}
        loading={positions.isFetching}
        value={value ?? []}
        options={options}
        onChange={(ids) => {
          const next = new Map(known)
          for (const o of options) if (ids.includes(o.value)) next.set(o.value, o.label)
          setKnown(next)
          onChange?.(ids)
        }}
      />
    </Space>
  )
}
