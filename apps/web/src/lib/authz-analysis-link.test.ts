import { renderHook } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import { authzAnalysisUrl, useCanOpenAuthzAnalysis } from './authz-analysis-link'
import { useSession } from './session-store'

describe('links to 权限分析', () => {
  beforeEach(() => useSession.setState({ userAuth: true, auths: [] }))

  it('carry the user in the query', () => {
    expect(authzAnalysisUrl(7)).toBe('/authzanalysis?userId=7')
  })

  it('show only to admins the menu shows the page to', () => {
    const can = () => renderHook(() => useCanOpenAuthzAnalysis()).result.current
    expect(can()).toBe(false)
    useSession.setState({ auths: ['/usermanage', '/authzanalysis'] })
    expect(can()).toBe(true)
    useSession.setState({ auths: ['/**'] })
    expect(can()).toBe(true)
    // the auth flag off shows every menu item, so the links too
    useSession.setState({ auths: [], userAuth: false })
    expect(can()).toBe(true)
  })
})
