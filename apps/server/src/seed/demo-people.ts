import { users, positionUsers } from '../db/schema'
import { DEMO_ACCOUNTS, EVERYWHERE } from './demo-company'
import { GIVEN, MOBILE_PREFIXES, SURNAMES } from './demo-names'
import { BATCH, insertInBatches, type DemoRun } from './demo-run'
import type { DemoPlaces } from './demo-places'

/**
 * The users, the known demo accounts first, then generated people (one password hash for all), each
 * holding a position in their department.
 */
export async function seedPeople(
  { tx, rnd, ops, log }: DemoRun,
  total: number,
  passwordHash: string,
  { deptTitles, positionsOf }: DemoPlaces,
) {
  // Users: the known demo accounts first, then generated people.
  const taken = new Set(
    (await tx.select({ nickName: users.nickName }).from(users)).map((u) => u.nickName.toLowerCase()),
  )
  const now = Date.now()
  const twoYears = 2 * 365 * 86_400_000
  const people: (typeof users.$inferInsert)[] = []
  const leafDepts = deptTitles.filter((d) => d.leaf)
  const homeOf: { orgId: number; title?: string; direct?: readonly string[] }[] = []
  for (let i = 0; i < total; i++) {
    const known = DEMO_ACCOUNTS[i]
    let realName: string
    let nickName: string
    if (known && !taken.has(known.nickName)) {
      realName = known.realName
      nickName = known.nickName
    } else {
      const [surname, surnamePy] = rnd.pick(SURNAMES)
      const given = rnd.next() < 0.35 ? [rnd.pick(GIVEN)] : [rnd.pick(GIVEN), rnd.pick(GIVEN)]
      realName = surname + given.map((g) => g[0]).join('')
      const base = surnamePy + given.map((g) => g[1]).join('')
      nickName = base
      for (let n = 2; taken.has(nickName); n++) nickName = `${base}${n}`
    }
    taken.add(nickName.toLowerCase())
    const created = new Date(now - Math.floor(rnd.next() * twoYears))
    people.push({
      nickName,
      realName,
      mobile: rnd.pick(MOBILE_PREFIXES) + String(rnd.int(100_000_000)).padStart(8, '0'),
      passwordHash,
      passwordIsInitial: 1,
      // a few frozen accounts (never the known demo accounts)
      status: !known && rnd.next() < 0.03 ? 2 : 1,
      createTime: created,
      updateTime: created,
      ...ops,
    })
    const home = known?.home && deptTitles.find((d) => d.name === known.home!.dept)
    homeOf.push({
      orgId: home ? home.orgId : rnd.pick(leafDepts).orgId,
      title: home ? known.home!.title : undefined,
      direct: known?.roles,
    })
  }
  const userIds: number[] = []
  for (let i = 0; i < people.length; i += BATCH) {
    const rows = await tx
      .insert(users)
      .values(people.slice(i, i + BATCH))
      .returning({ id: users.id })
    userIds.push(...rows.map((r) => r.id))
    if (total >= 10 * BATCH && (i / BATCH) % 10 === 9) log(`  用户 ${userIds.length}/${total}`)
  }
  log(`用户 ${userIds.length} 个（初始密码相同）`)

  // Each user holds a position in their department; about one in ten holds a second one elsewhere.
  const positionUserRows: { positionId: number; userId: number }[] = []
  const everywherePositions = deptTitles.flatMap((d) => positionsOf.get(d.orgId) ?? [])
  userIds.forEach((userId, i) => {
    const own = (positionsOf.get(homeOf[i].orgId) ?? []).filter((p) => !EVERYWHERE.includes(p.title))
    const titled = own.find((p) => p.title === homeOf[i].title)
    const first = titled ?? (own.length ? rnd.pick(own) : rnd.pick(everywherePositions))
    positionUserRows.push({ positionId: first.id, userId })
    // the demo accounts hold their one position only, so what the README says of them holds (a
    // department administrator's scope is their department); the roll is made for them too, so the
    // other users' data stays as it was
    if (rnd.next() < 0.1 && homeOf[i].direct === undefined) {
      const second = rnd.pick(everywherePositions)
      if (second.id !== first.id) positionUserRows.push({ positionId: second.id, userId })
    }
  })
  await insertInBatches(tx, positionUserRows, (t, batch) =>
    t.insert(positionUsers).values(batch).onConflictDoNothing(),
  )
  log(`用户岗位关联 ${positionUserRows.length} 条`)
  return { userIds, homeOf, positionUsers: positionUserRows.length }
}
