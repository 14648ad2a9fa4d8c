import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'

// SPEC.md §9: dev server on 8081, /api proxied to the local server on 8080; assets under ./static.
export default defineConfig({
  plugins: [react()],
  base: '/',
  build: {
    outDir: 'dist',
    assetsDir: 'static',
    // the screens load on demand (src/app/lazy-pages.tsx): no chunk should come near this
    chunkSizeWarningLimit: 500,
    rolldownOptions: {
      treeshake: {
        // antd's building blocks (rc-component, cssinjs, colours) do not declare that importing them
        // has no side effects, although none of their modules has any: told so, the bundler leaves
        // out the modules the console does not use, e.g. the form engine that antd's ConfigProvider
        // imports for a single context (DESIGN.md §12).
        moduleSideEffects: [
          {
            test: /node_modules[\\/](@rc-component[\\/]|@ant-design[\\/](cssinjs|cssinjs-utils|colors|fast-color)[\\/])/,
            sideEffects: false,
          },
        ],
      },
      output: {
        codeSplitting: {
          groups: [
            // React and the router: needed by every page and upgraded rarely, so their chunk stays
            // cached across releases of the console. antd is left to the automatic split, which
            // keeps the components only some screens use out of the first download (DESIGN.md §12).
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    port: 8081,
    proxy: { '/api': { target: 'http://127.0.0.1:8080', changeOrigin: true } },
  },
})
