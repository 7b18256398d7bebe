/// <reference types="vitest/config" />
import { defineConfig, type HtmlTagDescriptor, type Plugin } from 'vite'
import react from '@vitejs/plugin-react'
import { fileURLToPath } from 'node:url'

// preloadPage adds to index.html a modulepreload for a lazily loaded page's
// chunk and the chunks only it needs, and a preload for its CSS, so they
// download with the entry instead of after it has run. The home page gets
// this: every visit that starts without a session ends there (splash
// signs in and goes to /home) and most that start with one begin there.
// Vite's loader then finds the modules already fetched and the stylesheet
// in the preload cache. They ask for low priority: the first paint (the
// boot mark) needs none of them, so they must not compete with the entry
// and its stylesheet; with only those in flight they still start at once.
function preloadPage(page: string): Plugin {
  return {
    name: 'prima-preload-page',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const bundle = ctx.bundle ?? {}
        const chunks = Object.values(bundle).filter((c) => c.type === 'chunk')
        const byFile = new Map(chunks.map((c) => [c.fileName, c]))
        const entry = chunks.find((c) => c.isEntry)
        const target = chunks.find((c) => c.facadeModuleId?.endsWith(page))
        if (!entry || !target) throw new Error(`preloadPage: no chunk for ${page}`)
        // What the entry loads statically is in index.html already.
        const have = new Set<string>()
        const walk = (file: string, into: Set<string>) => {
          if (into.has(file)) return
          into.add(file)
          for (const f of byFile.get(file)?.imports ?? []) walk(f, into)
        }
        walk(entry.fileName, have)
        const need = new Set<string>()
        walk(target.fileName, need)
        const files = [...need].filter((f) => !have.has(f))
        const css = new Set(files.flatMap((f) => [...(byFile.get(f)?.viteMetadata?.importedCss ?? [])]))
        const tags: HtmlTagDescriptor[] = [
          ...files.map((f) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, fetchpriority: 'low', href: `/${f}` }, injectTo: 'head' as const })),
          ...[...css].map((f) => ({ tag: 'link', attrs: { rel: 'preload', as: 'style', crossorigin: true, fetchpriority: 'low', href: `/${f}` }, injectTo: 'head' as const })),
        ]
        return tags
      },
    },
  }
}

// The build lands in web/dist, which the Go binary embeds. emptyOutDir is
// off because dist keeps a placeholder for go:embed; `make web` clears the rest.
export default defineConfig({
  plugins: [react(), preloadPage('/src/features/catalog/pages/HomePage.tsx')],
  // '@/x' is src/x everywhere (tsconfig's paths say the same for tsc), so an
  // import reads the same from any depth.
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    assetsDir: 'assets',
    target: 'es2020',
    // What the entry loads statically goes in two chunks, the libraries
    // (they change rarely, so a deploy usually leaves them cached) and the
    // app; left alone, Rolldown cut it into seven, whose extra requests
    // queue behind HTTP/1.1's six connections per host on the first visit.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'vendor', test: /[\\/]node_modules[\\/]/, tags: ['$initial'], priority: 2 },
            { name: 'app', tags: ['$initial'], priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080', '/media': 'http://127.0.0.1:8080', '/check': 'http://127.0.0.1:8080' },
  },
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
  },
})
