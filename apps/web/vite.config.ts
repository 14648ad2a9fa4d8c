import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'

// SPEC.md §9: dev server on 8081, /api proxied to the local server on 8080; assets under ./static.
export default defineConfig({
  plugins: [react()],
  base: '/',
  build: { outDir: 'dist', assetsDir: 'static', chunkSizeWarningLimit: 2000 },
  server: {
    port: 8081,
    proxy: { '/api': { target: 'http://127.0.0.1:8080', changeOrigin: true } },
  },
})
