import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { App as AntApp, ConfigProvider } from 'antd'
import zhCN from 'antd/locale/zh_CN'
import dayjs from 'dayjs'
import 'dayjs/locale/zh-cn'
import { useEffect, type ReactNode } from 'react'
import { setMessageApi } from '../lib/feedback'

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

/** Users who ask their system for less motion get none (antd's animations are off). */
export const prefersReducedMotion = () =>
  typeof window !== 'undefined' && !!window.matchMedia?.('(prefers-reduced-motion: reduce)').matches

/** antd (zh_CN, size medium) with its App context for message/modal, and TanStack Query. */
export function Providers({ children, queryClient }: { children: ReactNode; queryClient: QueryClient }) {
  return (
    <ConfigProvider
      locale={zhCN}
      componentSize="middle"
      theme={{ token: { motion: !prefersReducedMotion() } }}
    >
      <AntApp>
        <FeedbackBridge />
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  )
}
