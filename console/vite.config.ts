/// <reference types="vitest/config" />
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import { fileURLToPath } from 'node:url'

// The operator console is its own build: it shares no chunk with the phone
// app (web/), whose initial JavaScript has a budget the console's antd would
// blow many times over. It is served by the same binary at /admin/ (Go:
// internal/app/console.go), so every URL the page names starts there. The
// build lands in console/dist, which the binary embeds; emptyOutDir is off
// because dist keeps a placeholder for go:embed and `make console` clears the rest.
export default defineConfig({
  base: '/admin/',
  plugins: [react()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    assetsDir: 'assets',
    target: 'es2022',
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // React, the router and TanStack Query change rarely and every
            // route needs them: one chunk a deploy usually leaves cached.
            // antd is left to the splitter, so a route's components (the
            // audit's date picker, the tables) load with that route, not
            // with the sign-in page; one antd chunk measured 323 KB gzip.
            { name: 'react', test: /[\\/]node_modules[\\/](?:react|react-dom|scheduler|react-router|@tanstack)[\\/]/, priority: 3 },
          ],
        },
      },
    },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
  },
})
