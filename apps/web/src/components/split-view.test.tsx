import { afterEach, describe, expect, it } from 'vitest'
import { act, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useSession } from '../lib/session-store'
import { SplitView } from './split-view'

afterEach(() => act(() => useSession.getState().setDevice('desktop')))

describe('SplitView', () => {
  it('keeps what was typed beside the tree when the window crosses the phone width and back', async () => {
    act(() => useSession.getState().setDevice('desktop'))
    render(
      <SplitView sideWidth={320} mainKey="/authmanage/addform" side={<input aria-label="树的筛选" />}>
        <input aria-label="中文名" />
      </SplitView>,
    )
    await userEvent.type(screen.getByLabelText('中文名'), '测试权限')
    await userEvent.type(screen.getByLabelText('树的筛选'), '部门')
    const form = screen.getByLabelText('中文名')

    act(() => useSession.getState().setDevice('mobile'))
    // stacked, the form under the tree: the same elements, not new ones
    expect(screen.getByLabelText('中文名')).toBe(form)
    const main = screen.getByTestId('split-main')
    expect(main.parentElement!.parentElement!.style.flexDirection).toBe('column')

    act(() => useSession.getState().setDevice('desktop'))
    expect(main.parentElement!.parentElement!.style.flexDirection).toBe('')
    expect(screen.getByLabelText('中文名')).toBe(form)
    expect((screen.getByLabelText('中文名') as HTMLInputElement).value).toBe('测试权限')
    expect((screen.getByLabelText('树的筛选') as HTMLInputElement).value).toBe('部门')
  })
})
