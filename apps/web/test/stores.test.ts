import { beforeEach, describe, expect, it, vi } from 'vitest'
import { api, resetApi } from './mock-http'

// Unit tests of the store transitions: the HTTP functions are replaced by mocks.
const unauthorizedListeners = vi.hoisted(() => [] as (() => void)[])
vi.mock('../src/lib/http', () => import('./mock-http'))
// the 401 listeners live apart from the HTTP client (lib/unauthorized.ts)
vi.mock('../src/lib/unauthorized', () => ({
  onUnauthorized: (l: () => void) => unauthorizedListeners.push(l),
}))

const { useOrgStore } = await import('../src/lib/stores/org-store')
const { usePositionStore } = await import('../src/lib/stores/position-store')
const { useStationStore } = await import('../src/lib/stores/station-store')
const { useAuthStore, toAuthPayload } = await import('../src/lib/stores/auth-store')
const { useSession, authsOf, deviceFor } = await import('../src/lib/session-store')

const failure = new Error('失败')
// shaped as the contract describes them: a department both as a tree node and as its detail
const org = {
  id: 2,
  organizationName: '研发部',
  description: null,
  parent: 1,
  organizationCompleteName: '总部-研发部',
  childCount: 0,
  children: [],
  stationIds: [],
  positionSimpleDTOS: [],
}
const station = {
  id: 5,
  stationName: '工程师',
  type: 1,
  createTime: '2024-01-01T00:00:00.000Z',
  updateTime: '2024-01-01T00:00:00.000Z',
  createUserVo: null,
  updateUserVo: null,
  orgIds: [],
  stationPositionVOS: [],
}
const authNode = { code: 'A1', chName: '用户', enName: 'user', type: 2, status: 1 }

beforeEach(() => {
  resetApi()
  useOrgStore.setState({ orginfo: null, orgList: [] })
  usePositionStore.setState({ positioninfo: null, positionList: [], positionTotal: 0 })
  useStationStore.setState({ stationInfo: null, stationList: [], stationTotal: 0 })
  useAuthStore.setState({ authInfo: null, authList: [] })
  localStorage.clear()
})

describe('organisation store', () => {
  it('fetching the tree stores orgList (GET /org/tree)', async () => {
    api.get.mockResolvedValue([org])
    await useOrgStore.getState().fetchTree()
    expect(api.get).toHaveBeenCalledWith('/org/tree')
    expect(useOrgStore.getState().orgList).toEqual([org])
  })

  it('fetching one stores orginfo (GET /org/detail?orgId)', async () => {
    api.get.mockResolvedValue(org)
    await useOrgStore.getState().fetchOne(2)
    expect(api.get).toHaveBeenCalledWith('/org/detail', { orgId: 2 })
    expect(useOrgStore.getState().orginfo).toEqual(org)
  })

  it('update resets the cached list to empty', async () => {
    useOrgStore.setState({ orgList: [org], orginfo: org })
    api.put.mockResolvedValue(null)
    await useOrgStore.getState().update({ id: 2, organizationName: '研发中心' })
    expect(api.put).toHaveBeenCalledWith('/org/update', { id: 2, organizationName: '研发中心' })
    expect(useOrgStore.getState().orgList).toEqual([])
  })

  it('delete resets the cached list to empty', async () => {
    useOrgStore.setState({ orgList: [org] })
    api.del.mockResolvedValue(null)
    await useOrgStore.getState().remove(2)
    expect(api.del).toHaveBeenCalledWith('/org/delete', { orgId: 2 })
    expect(useOrgStore.getState().orgList).toEqual([])
  })

  it('create clears the current organisation and answers the new id', async () => {
    useOrgStore.setState({ orginfo: org, orgList: [org] })
    api.post.mockResolvedValue(9)
    await expect(useOrgStore.getState().create({ organizationName: '测试部', parent: 1 })).resolves.toBe(9)
    expect(api.post).toHaveBeenCalledWith('/org/insert', { organizationName: '测试部', parent: 1 })
    expect(useOrgStore.getState().orginfo).toBeNull()
    expect(useOrgStore.getState().orgList).toEqual([org])
  })

  it('failures change nothing', async () => {
    useOrgStore.setState({ orginfo: org, orgList: [org] })
    api.put.mockRejectedValue(failure)
    api.del.mockRejectedValue(failure)
    api.post.mockRejectedValue(failure)
    await expect(useOrgStore.getState().update({ id: 2, organizationName: 'x' })).rejects.toBe(failure)
    await expect(useOrgStore.getState().remove(2)).rejects.toBe(failure)
    await expect(useOrgStore.getState().create({ organizationName: 'x', parent: 1 })).rejects.toBe(failure)
    expect(useOrgStore.getState()).toMatchObject({ orginfo: org, orgList: [org] })
  })
})

describe('position store', () => {
  it('fetching the list stores positionList (POST /position/list)', async () => {
    const p = {
      id: 1,
      stationId: 5,
      orgId: 2,
      status: 1,
      type: 1,
      organizationCompleteName: '总部-研发部',
      stationName: '工程师',
    }
    api.post.mockResolvedValue({ list: [p], total: 1 })
    await usePositionStore.getState().fetchList({ pageNum: 1, pageSize: 10 })
    expect(api.post).toHaveBeenCalledWith('/position/list', { pageNum: 1, pageSize: 10 })
    expect(usePositionStore.getState()).toMatchObject({ positionList: [p], positionTotal: 1 })
    usePositionStore.getState().setPositionInfo(p)
    expect(usePositionStore.getState().positioninfo).toEqual(p)
  })
})

describe('station store (SPEC.md §4)', () => {
  it('starts empty', () => {
    expect(useStationStore.getState()).toMatchObject({ stationInfo: null, stationList: [] })
  })

  it('fetching the list stores it', async () => {
    api.post.mockResolvedValue({ list: [station], total: 1 })
    await useStationStore.getState().fetchList({ pageNum: 1, pageSize: 10, stationName: '工' })
    expect(api.post).toHaveBeenCalledWith('/station/list', { pageNum: 1, pageSize: 10, stationName: '工' })
    expect(useStationStore.getState()).toMatchObject({ stationList: [station], stationTotal: 1 })
  })

  it('adding resets the single station to empty', async () => {
    useStationStore.setState({ stationInfo: station })
    api.post.mockResolvedValue(6)
    await useStationStore.getState().add({ stationName: '新职位', orgIds: [1], type: 1 })
    expect(api.post).toHaveBeenCalledWith('/station/insert', { stationName: '新职位', orgIds: [1], type: 1 })
    expect(useStationStore.getState().stationInfo).toBeNull()
  })

  it('fetching one stores the result', async () => {
    api.get.mockResolvedValue(station)
    await useStationStore.getState().fetchOne(5)
    expect(api.get).toHaveBeenCalledWith('/station/detail', { stationId: 5 })
    expect(useStationStore.getState().stationInfo).toEqual(station)
  })

  it('updating one stores the result (the sent record when the answer has no data)', async () => {
    const body = { id: 5, stationName: '高级工程师', orgIds: [1], type: 1 }
    api.put.mockResolvedValue(null)
    await useStationStore.getState().update(body)
    expect(api.put).toHaveBeenCalledWith('/station/update', body)
    expect(useStationStore.getState().stationInfo).toEqual(body)
    api.put.mockResolvedValue({ ...body, updateTime: 't' })
    await useStationStore.getState().update(body)
    expect(useStationStore.getState().stationInfo).toEqual({ ...body, updateTime: 't' })
  })

  it('deleting empties the list', async () => {
    useStationStore.setState({ stationList: [station], stationInfo: station })
    api.del.mockResolvedValue(null)
    await useStationStore.getState().remove(5)
    expect(api.del).toHaveBeenCalledWith('/station/delete', { stationId: 5 })
    expect(useStationStore.getState().stationList).toEqual([])
    expect(useStationStore.getState().stationInfo).toEqual(station)
  })

  it('the list-only fetch stores nothing', async () => {
    api.post.mockResolvedValue([station])
    const before = useStationStore.getState()
    await expect(useStationStore.getState().fetchSimpleList({ orgId: 1 })).resolves.toEqual([station])
    expect(api.post).toHaveBeenCalledWith('/station/list/simple', { orgId: 1 })
    const after = useStationStore.getState()
    expect(after.stationList).toBe(before.stationList)
    expect(after.stationInfo).toBe(before.stationInfo)
  })

  it('a failed action leaves the store unchanged', async () => {
    useStationStore.setState({ stationList: [station], stationInfo: station, stationTotal: 1 })
    api.get.mockRejectedValue(failure)
    api.post.mockRejectedValue(failure)
    api.put.mockRejectedValue(failure)
    api.del.mockRejectedValue(failure)
    const s = useStationStore.getState()
    await expect(s.fetchList({ pageNum: 1, pageSize: 10 })).rejects.toBe(failure)
    await expect(s.add({ stationName: 'x', orgIds: [], type: 1 })).rejects.toBe(failure)
    await expect(s.fetchOne(5)).rejects.toBe(failure)
    await expect(s.update({ id: 5, stationName: 'x', orgIds: [], type: 1 })).rejects.toBe(failure)
    await expect(s.remove(5)).rejects.toBe(failure)
    expect(useStationStore.getState()).toMatchObject({
      stationList: [station],
      stationInfo: station,
      stationTotal: 1,
    })
  })
})

describe('authorisation store (SPEC.md §4)', () => {
  const record = {
    code: 'A1',
    chName: '用户',
    enName: 'user',
    type: 2,
    status: 1,
    frontEndAccesss: [{ frontEndAccess: ' /usermanage ' }, { frontEndAccess: '/usermanage/** ' }],
    urlPatternInfos: [{ method: 'POST', uri: '/user/list' }],
  }

  it('getting one record stores it as authInfo', async () => {
    api.get.mockResolvedValue(authNode)
    await useAuthStore.getState().fetchOne('A1')
    expect(api.get).toHaveBeenCalledWith('/auth/detail', { authCode: 'A1' })
    expect(useAuthStore.getState().authInfo).toEqual(authNode)
  })

  it('getting the list stores authList (POST /auth/tree with {})', async () => {
    api.post.mockResolvedValue([authNode])
    await useAuthStore.getState().fetchTree()
    expect(api.post).toHaveBeenCalledWith('/auth/tree', {})
    expect(useAuthStore.getState().authList).toEqual([authNode])
  })

  it('update stores the sent record on success, sending trimmed comma-joined paths', async () => {
    api.put.mockResolvedValue(null)
    await useAuthStore.getState().update(record)
    const sent = api.put.mock.calls[0][1]
    expect(api.put.mock.calls[0][0]).toBe('/auth/update')
    expect(sent.frontEndAccessList).toBe('/usermanage,/usermanage/**')
    expect(sent).not.toHaveProperty('frontEndAccesss')
    expect(useAuthStore.getState().authInfo).toEqual(record)
  })

  it('update failure leaves authInfo unchanged', async () => {
    useAuthStore.setState({ authInfo: authNode })
    api.put.mockRejectedValue(failure)
    await expect(useAuthStore.getState().update(record)).rejects.toBe(failure)
    expect(useAuthStore.getState().authInfo).toEqual(authNode)
  })

  it('insert answers the new code and the msg, store unchanged', async () => {
    api.call.mockResolvedValue({ code: 200, msg: '创建成功', data: 'A9' })
    const { code: _c, ...withoutCode } = record
    await expect(useAuthStore.getState().insert(withoutCode)).resolves.toEqual({
      code: 'A9',
      msg: '创建成功',
    })
    expect(api.call.mock.calls[0][0]).toMatchObject({ method: 'POST', url: '/auth/insert' })
    expect(api.call.mock.calls[0][0].data.frontEndAccessList).toBe('/usermanage,/usermanage/**')
    expect(useAuthStore.getState().authInfo).toBeNull()
  })

  it('delete clears authInfo on success only', async () => {
    useAuthStore.setState({ authInfo: authNode })
    api.del.mockRejectedValueOnce(failure)
    await expect(useAuthStore.getState().remove('A1')).rejects.toBe(failure)
    expect(useAuthStore.getState().authInfo).toEqual(authNode)
    api.del.mockResolvedValue(null)
    await useAuthStore.getState().remove('A1')
    expect(api.del).toHaveBeenCalledWith('/auth/delete', { authCode: 'A1' })
    expect(useAuthStore.getState().authInfo).toBeNull()
  })

  it('the back-end list fetch clears authInfo on success and answers urlMap', async () => {
    const urlMap = { GET: { 用户: [{ apiOperationValue: '详情', urls: ['/user/detail'] }] } }
    useAuthStore.setState({ authInfo: authNode })
    api.get.mockRejectedValueOnce(failure)
    await expect(useAuthStore.getState().fetchBackEnd()).rejects.toBe(failure)
    expect(useAuthStore.getState().authInfo).toEqual(authNode)
    api.get.mockResolvedValue({ urlMap })
    await expect(useAuthStore.getState().fetchBackEnd()).resolves.toEqual(urlMap)
    expect(api.get).toHaveBeenCalledWith('/auth/get-all-back-end')
    expect(useAuthStore.getState().authInfo).toBeNull()
  })

  it('toAuthPayload drops blank entries', () => {
    expect(toAuthPayload({ ...record, frontEndAccesss: [{ frontEndAccess: '  ' }] }).frontEndAccessList).toBe(
      '',
    )
  })
})

describe('session store', () => {
  const user = {
    id: 1,
    nickName: 'admin',
    realName: null,
    status: 1,
    roles: [],
    auths: ['/usermanage'],
    authCodes: [],
    calls: [],
    superAdmin: false,
    passwordIsInitial: true,
    manageScope: null,
  }

  beforeEach(() => useSession.setState({ token: null, user: null, auths: [], isAms: false }))

  it('defaults: isAms false, user-auth flag on', () => {
    expect(useSession.getState().isAms).toBe(false)
    expect(useSession.getState().userAuth).toBe(true)
  })

  it('login stores the token under Authorization (POST /login as the sign-in call)', async () => {
    api.post.mockResolvedValue({ token: 'tok', user: {} })
    await useSession.getState().login('admin', 'pw')
    expect(api.post).toHaveBeenCalledWith(
      '/login',
      { nickName: 'admin', password: 'pw' },
      { authRequest: true },
    )
    expect(useSession.getState().token).toBe('tok')
    expect(localStorage.getItem('Authorization')).toBe('tok')
  })

  it('a failed login stores nothing', async () => {
    api.post.mockRejectedValue(failure)
    await expect(useSession.getState().login('admin', 'x')).rejects.toBe(failure)
    expect(useSession.getState().token).toBeNull()
    expect(localStorage.getItem('Authorization')).toBeNull()
  })

  it('loading the current user stores user info and auths', async () => {
    api.get.mockResolvedValue(user)
    await useSession.getState().loadCurrentUser()
    expect(api.get).toHaveBeenCalledWith('/user/current')
    expect(useSession.getState()).toMatchObject({ user, auths: ['/usermanage'] })
  })

  it('a super admin may open every console path', () => {
    expect(authsOf({ ...user, superAdmin: true })).toContain('/**')
    expect(authsOf(user)).toEqual(['/usermanage'])
  })

  it('loading the config stores the runtime flags', async () => {
    api.get.mockResolvedValue({
      isAms: true,
      showOperatorUser: true,
      hideUserBaseInfo: false,
      uploadMaxSizeMb: 10,
    })
    await useSession.getState().loadConfig()
    expect(api.get).toHaveBeenCalledWith('/config', undefined, { silent: true })
    expect(useSession.getState()).toMatchObject({
      isAms: true,
      showOperatorUser: true,
      hideUserBaseInfo: false,
    })
  })

  it('logout calls POST /logout and clears token, user and auths even when the call fails', async () => {
    localStorage.setItem('Authorization', 'tok')
    useSession.setState({ token: 'tok', user, auths: ['/usermanage'] })
    api.post.mockRejectedValue(failure)
    await useSession.getState().logout()
    expect(api.post).toHaveBeenCalledWith('/logout', undefined, { silent: true, signingOut: true })
    expect(useSession.getState()).toMatchObject({ token: null, user: null, auths: [] })
    expect(localStorage.getItem('Authorization')).toBeNull()
  })

  it('a 401 dispatches logout: the store listens to the HTTP layer', () => {
    useSession.setState({ token: 'tok', user, auths: ['/x'] })
    expect(unauthorizedListeners).toHaveLength(1)
    unauthorizedListeners.forEach((l) => l())
    expect(useSession.getState()).toMatchObject({ token: null, user: null, auths: [] })
  })

  it('device: mobile under 768 px, desktop otherwise', () => {
    expect(deviceFor(500)).toBe('mobile')
    expect(deviceFor(1440)).toBe('desktop')
    useSession.getState().setDevice('mobile')
    expect(useSession.getState().device).toBe('mobile')
  })
})
