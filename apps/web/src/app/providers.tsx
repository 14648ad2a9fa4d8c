import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { App as AntApp, ConfigProvider, message, theme } from 'antd'
import zhCN from 'antd/locale/zh_CN'
import dayjs from 'dayjs'
import 'dayjs/locale/zh-cn'
import { useEffect, type ReactNode } from 'react'
import { MAX_TOASTS, setMessageApi } from '../lib/feedback'
import { themeFor, useAppearance } from '../lib/theme-store'

dayjs.locale('zh-cn')

export function createQueryClient() {
  return new QueryClient({
    // The HTTP layer already toasts every failure: retrying would repeat the toast.
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false }, mutations: { retry: false } },
  })
}

/** Hands antd's context-aware message API to the HTTP layer's toasts. */
function FeedbackBridge() {
  const { message } = AntApp.useApp()
  useEffect(() => {
    setMessageApi(message)
    return () => setMessageApi(null)
  }, [message])
  return null
}

/**
 * The page behind the layout (overscroll, the area below a short screen) and the browser's own
 * widgets (scroll bars, autofill) follow the theme too, not only antd's components.
 */
function ThemeBridge({ dark }: { dark: boolean }) {
  const { token } = theme.useToken()
  useEffect(() => {
    document.body.style.background = token.colorBgLayout
    document.body.style.color = token.colorText
    document.documentElement.style.colorScheme = dark ? 'dark' : 'light'
  }, [token.colorBgLayout, token.colorText, dark])
  return null
}

// The static toasts (used before the App context is up) keep the same limit as the context ones.
message.config({ maxCount: MAX_TOASTS })

/** Users who ask their system for less motion get none (antd's animations are off). */
export const prefersReducedMotion = () =>
  typeof window !== 'undefined' && !!window.matchMedia?.('(prefers-reduced-motion: reduce)').matches

/**
 * antd (zh_CN, size medium, the browser's chosen theme and density) with its App context for
 * message/modal, and TanStack Query.
 */
export function Providers({ children, queryClient }: { children: ReactNode; queryClient: QueryClient }) {
  const mode = useAppearance((s) => s.mode)
  const density = useAppearance((s) => s.density)
  return (
    <ConfigProvider
      locale={zhCN}
      componentSize="middle"
      theme={{ ...themeFor({ mode, density }), token: { motion: !prefersReducedMotion() } }}
    >
      {/* Quick work must not stack toasts down the screen: the oldest goes, the newest stays. */}
      <AntApp message={{ maxCount: MAX_TOASTS }}>
        <ThemeBridge dark={mode === 'dark'} />
        <FeedbackBridge />
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  )
}
