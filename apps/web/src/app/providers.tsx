import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { ConfigProvider, theme } from 'antd'
// the hook alone: antd's message also carries its static API, which the console does not need here
import useMessage from 'antd/es/message/useMessage'
// the ES build of the locale: 'antd/locale/zh_CN' is the CommonJS one, which brings its own copies into the first download
import zhCN from 'antd/es/locale/zh_CN'
import { useEffect, type ReactNode } from 'react'
import { MAX_TOASTS, setMessageApi } from '../lib/feedback'
import { themeFor, useAppearance } from '../lib/theme-store'

export function createQueryClient() {
  return new QueryClient({
    // The HTTP layer already toasts every failure: retrying would repeat the toast.
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false }, mutations: { retry: false } },
  })
}

/**
 * What antd's App component gave the console, without the parts it does not use: the page's text in
 * the theme's font and colours (App's root styles) and the toasts in the theme (a context-aware
 * message API, handed to lib/feedback.ts). App would also bring its modal and notification hooks into
 * the first download; the screens that confirm with a modal use Modal.useModal (DESIGN.md §12).
 */
function AppRoot({ children }: { children: ReactNode }) {
  const { token } = theme.useToken()
  // Quick work must not stack toasts down the screen: the oldest goes, the newest stays.
  const [messageApi, messageHolder] = useMessage({ maxCount: MAX_TOASTS })
  useEffect(() => {
    setMessageApi(messageApi)
    return () => setMessageApi(null)
  }, [messageApi])
  return (
    <div
      style={{
        color: token.colorText,
        fontSize: token.fontSize,
        lineHeight: token.lineHeight,
        fontFamily: token.fontFamily,
      }}
    >
      {messageHolder}
      {children}
    </div>
  )
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

/** Users who ask their system for less motion get none (antd's animations are off). */
export const prefersReducedMotion = () =>
  typeof window !== 'undefined' && !!window.matchMedia?.('(prefers-reduced-motion: reduce)').matches

/**
 * antd (zh_CN, size medium, button labels unspaced, the browser's chosen theme and density), the
 * toasts, and TanStack Query.
 */
export function Providers({ children, queryClient }: { children: ReactNode; queryClient: QueryClient }) {
  const mode = useAppearance((s) => s.mode)
  const density = useAppearance((s) => s.density)
  return (
    <ConfigProvider
      locale={zhCN}
      componentSize="middle"
      // a button reads as the specification writes it: 新建, not 新 建 (antd spaces two-character labels)
      button={{ autoInsertSpace: false }}
      theme={{ ...themeFor({ mode, density }), token: { motion: !prefersReducedMotion() } }}
    >
      <AppRoot>
        <ThemeBridge dark={mode === 'dark'} />
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </AppRoot>
    </ConfigProvider>
  )
}
