import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'contract', include: ['packages/contract/test/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'server',
          include: ['apps/server/test/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['apps/server/test/global-setup.ts'],
          // The files share one process, one after another, rather than each loading the server's
          // modules afresh (two seconds a file, and the suite ran more than twice as long). Nothing is
          // shared between them: each builds its own app on its own database, and an app sets the
          // process-wide hashing settings when it is built.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // fault, race and two-instance tests share a 2-core machine with the rest; a test that fails
          // twice fails, and `npm test` names every test that needed its second try
          retry: 1,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}', 'apps/web/test/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['apps/web/test/setup.ts'],
          testTimeout: 20_000,
          // antd's pop-up motion runs on timers in jsdom; a test that loses that race once gets one more try
          retry: 1,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.ts'],
          environment: 'node',
          globalSetup: ['e2e/global-setup.ts'],
          testTimeout: 90_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // a real browser on a 2-core machine: one more try for a test that lost a race with the UI
          retry: 1,
        },
      },
    ],
  },
})
