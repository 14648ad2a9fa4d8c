import { act, render, screen, waitFor } from '@testing-library/react'
import { QueryClient } from '@tanstack/react-query'
import { theme } from 'antd'
import { beforeEach, describe, expect, it } from 'vitest'
import { Providers } from '../src/app/providers'
import { MAX_TOASTS, toastSuccess } from '../src/lib/feedback'
import { APPEARANCE_STORAGE_KEY, readAppearance, themeFor, useAppearance } from '../src/lib/theme-store'

describe('appearance (theme and density)', () => {
  beforeEach(() => window.localStorage.clear())

  it('is light and standard until this browser chooses otherwise; a bad stored value counts as unset', () => {
    expect(readAppearance()).toEqual({ mode: 'light', density: 'default' })
    window.localStorage.setItem(APPEARANCE_STORAGE_KEY, '{not json')
    expect(readAppearance()).toEqual({ mode: 'light', density: 'default' })
    window.localStorage.setItem(APPEARANCE_STORAGE_KEY, JSON.stringify({ mode: 'neon', density: 'compact' }))
    expect(readAppearance()).toEqual({ mode: 'light', density: 'compact' })
  })

  it('keeps the choice in local storage', () => {
    act(() => useAppearance.getState().setMode('dark'))
    act(() => useAppearance.getState().setDensity('compact'))
    expect(JSON.parse(window.localStorage.getItem(APPEARANCE_STORAGE_KEY)!)).toEqual({
      mode: 'dark',
      density: 'compact',
    })
    expect(readAppearance()).toEqual({ mode: 'dark', density: 'compact' })
    act(() => useAppearance.getState().setMode('light'))
    expect(readAppearance()).toEqual({ mode: 'light', density: 'compact' })
  })

  it("maps to antd's dark and compact algorithms", () => {
    expect(themeFor({ mode: 'light', density: 'default' }).algorithm).toEqual([theme.defaultAlgorithm])
    expect(themeFor({ mode: 'dark', density: 'compact' }).algorithm).toEqual([
      theme.darkAlgorithm,
      theme.compactAlgorithm,
    ])
  })

  it('the page behind the console follows the theme', async () => {
    act(() => useAppearance.getState().setMode('dark'))
    render(
      <Providers queryClient={new QueryClient()}>
        <p>x</p>
      </Providers>,
    )
    await waitFor(() => expect(document.documentElement.style.colorScheme).toBe('dark'))
    act(() => useAppearance.getState().setMode('light'))
    await waitFor(() => expect(document.documentElement.style.colorScheme).toBe('light'))
  })
})

describe('toasts', () => {
  it(`show at most ${MAX_TOASTS} at once, the newest kept`, async () => {
    render(
      <Providers queryClient={new QueryClient()}>
        <p>x</p>
      </Providers>,
    )
    await act(async () => {
      for (let i = 1; i <= 5; i++) toastSuccess(`第${i}条`)
    })
    await waitFor(() => expect(screen.getByText('第5条')).toBeInTheDocument())
    await waitFor(() => expect(document.querySelectorAll('.ant-message-notice').length).toBe(MAX_TOASTS))
    expect(screen.queryByText('第1条')).toBeNull()
    expect(screen.getByText('第3条')).toBeInTheDocument()
  })
})
