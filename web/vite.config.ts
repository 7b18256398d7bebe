/// <reference types="vitest/config" />
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'

// The build lands in web/dist, which the Go binary embeds. emptyOutDir is
// off because dist keeps a placeholder for go:embed; `make web` clears the rest.
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    assetsDir: 'assets',
    target: 'es2020',
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080', '/media': 'http://127.0.0.1:8080', '/check': 'http://127.0.0.1:8080' },
  },
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
  },
})
