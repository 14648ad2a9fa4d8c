import '@testing-library/jest-dom/vitest'
import { afterEach } from 'vitest'
import { act, cleanup, configure } from '@testing-library/react'
import { message, notification } from 'antd'
import { MAX_TOASTS, setFallbackMessageApi } from '../src/lib/feedback'

// findBy… and waitFor wait up to 5 s rather than 1: a screen's first render in jsdom (antd's styles, the
// lazy chunks) takes longer than a second when CI shares the machine with the server tests.
configure({ asyncUtilTimeout: 5_000 })

// Components rendered without the app's providers toast through antd's static API (lib/feedback.ts).
message.config({ maxCount: MAX_TOASTS })
setFallbackMessageApi(message)

// Toasts live outside the rendered tree; one test's toast must not be seen by the next. Removing them is
// React work: act() runs it now, before the test environment is torn down.
afterEach(async () => {
  cleanup()
  await act(async () => {
    message.destroy()
    notification.destroy()
    await new Promise((resolve) => setTimeout(resolve, 0))
  })
})

// antd reads these browser APIs, which jsdom lacks.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList
}
if (!window.ResizeObserver) {
  window.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver
}
