import type { DemoRun } from './demo-run'
import { organizations, positions, stations } from '../db/schema'
import { COMPANY, EVERYWHERE, type DeptSpec } from './demo-company'

/** A department as written, with the job titles its positions pair it with. */
export interface DemoDept {
  orgId: number
  name: string
  titles: string[]
  leaf: boolean
}

/** The company's job titles, departments (level by level under the root) and positions. */
export async function seedPlaces({ tx, ops, log }: DemoRun, rootId: number) {
  // Job titles: every title named anywhere in the company, once.
  const titleNames = [...new Set([...collectTitles(COMPANY), ...EVERYWHERE])]
  const titleRows = await tx
    .insert(stations)
    .values(titleNames.map((stationName) => ({ stationName, type: 1, ...ops })))
    .onConflictDoNothing({ target: stations.stationName })
    .returning({ id: stations.id, stationName: stations.stationName })
  const titleId = new Map(titleRows.map((r) => [r.stationName, r.id]))
  const existing = await tx.select({ id: stations.id, stationName: stations.stationName }).from(stations)
  for (const r of existing) if (!titleId.has(r.stationName)) titleId.set(r.stationName, r.id)
  log(`职位 ${titleNames.length} 个`)

  // Departments, level by level, then their positions.
  const deptTitles: DemoDept[] = []
  let level: { spec: DeptSpec; parent: number }[] = COMPANY.map((spec) => ({ spec, parent: rootId }))
  let orgCount = 0
  while (level.length) {
    const inserted = await tx
      .insert(organizations)
      .values(
        level.map(({ spec, parent }) => ({
          organizationName: spec.name,
          description: spec.description ?? null,
          parent,
          ...ops,
        })),
      )
      .returning({ id: organizations.id })
    orgCount += inserted.length
    const next: typeof level = []
    level.forEach(({ spec }, i) => {
      const orgId = inserted[i].id
      deptTitles.push({
        orgId,
        name: spec.name,
        titles: [...new Set([...(spec.stations ?? []), ...EVERYWHERE])],
        leaf: !spec.children?.length,
      })
      for (const child of spec.children ?? []) next.push({ spec: child, parent: orgId })
    })
    level = next
  }
  log(`部门 ${orgCount} 个`)

  const positionRows = await tx
    .insert(positions)
    .values(
      deptTitles.flatMap((d) =>
        d.titles.map((t) => ({
          orgId: d.orgId,
          stationId: titleId.get(t)!,
          status: 1,
          type: 1,
        })),
      ),
    )
    .onConflictDoNothing()
    .returning({ id: positions.id, orgId: positions.orgId, stationId: positions.stationId })
  const stationNameById = new Map([...titleId].map(([name, id]) => [id, name]))
  const positionsOf = new Map<number, { id: number; title: string }[]>()
  for (const p of positionRows) {
    const list = positionsOf.get(p.orgId) ?? []
    list.push({ id: p.id, title: stationNameById.get(p.stationId)! })
    positionsOf.set(p.orgId, list)
  }
  log(`岗位 ${positionRows.length} 个`)
  return {
    titles: titleRows.length,
    titleId,
    orgCount,
    deptTitles,
    positionRows,
    stationNameById,
    positionsOf,
  }
}

export type DemoPlaces = Awaited<ReturnType<typeof seedPlaces>>

function collectTitles(depts: DeptSpec[]): string[] {
  return depts.flatMap((d) => [...(d.stations ?? []), ...collectTitles(d.children ?? [])])
}
