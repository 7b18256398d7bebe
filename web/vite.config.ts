/// <reference types="vitest/config" />
import { defineConfig, type HtmlTagDescriptor, type Plugin } from 'vite'
import react from '@vitejs/plugin-react'
import { fileURLToPath } from 'node:url'

// preloadPages adds to index.html a modulepreload for chunks the page's
// entry does not load statically, and a preload for their CSS, so they
// download with the entry instead of after it has run: first the app
// (start.tsx, which the entry imports once the first screen is painted),
// then the home page. Home gets this because every visit that starts
// without a session ends there (splash signs in and goes to /home) and
// most that start with one begin there. Vite's loader then finds the
// modules already fetched and the stylesheets in the preload cache. Home's
// ask for low priority: the first paint (the boot mark) needs none of
// them, so they must not compete with the entry and its stylesheet; with
// only those in flight they still start at once.
//
// Every one of these tags carries data-prima-later: on a page whose first
// screen the server draws, the server holds them back in a <template> and
// the entry puts them in once that screen is painted (app/first-paint.ts),
// so the picture has the line to itself. A page's own (here home's) also
// carry data-prima-page with its name: the server drops them from the
// first screens of other pages (a shared /detail, /shortvideo), where they
// would be fetched, and put in on the main thread, for a page not shown.
function preloadPages(pages: { page: string; low?: boolean; name?: string }[]): Plugin {
  return {
    name: 'prima-preload-page',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const bundle = ctx.bundle ?? {}
        const chunks = Object.values(bundle).filter((c) => c.type === 'chunk')
        const byFile = new Map(chunks.map((c) => [c.fileName, c]))
        // The page's entry: the input named index (index.html, src/main.tsx).
        const entry = chunks.find((c) => c.isEntry && c.name === 'index')
        if (!entry) throw new Error('preloadPages: no chunk for the page entry')
        // What the entry loads statically is in index.html already.
        const have = new Set<string>()
        const walk = (file: string, into: Set<string>) => {
          if (into.has(file)) return
          into.add(file)
          for (const f of byFile.get(file)?.imports ?? []) walk(f, into)
        }
        walk(entry.fileName, have)
        const haveCss = new Set([...have].flatMap((f) => [...(byFile.get(f)?.viteMetadata?.importedCss ?? [])]))
        const tags: HtmlTagDescriptor[] = []
        for (const { page, low, name } of pages) {
          const target = chunks.find((c) => c.facadeModuleId?.endsWith(page))
          if (!target) throw new Error(`preloadPages: no chunk for ${page}`)
          const need = new Set<string>()
          walk(target.fileName, need)
          const files = [...need].filter((f) => !have.has(f))
          const css = [...new Set(files.flatMap((f) => [...(byFile.get(f)?.viteMetadata?.importedCss ?? [])]))].filter((f) => !haveCss.has(f))
          files.forEach((f) => have.add(f))
          css.forEach((f) => haveCss.add(f))
          const extra = { ...(low ? { fetchpriority: 'low' } : {}), ...(name ? { 'data-prima-page': name } : {}) }
          tags.push(
            ...files.map((f) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, ...extra, href: `/${f}`, 'data-prima-later': true }, injectTo: 'head' as const })),
            ...css.map((f) => ({ tag: 'link', attrs: { rel: 'preload', as: 'style', crossorigin: true, ...extra, href: `/${f}`, 'data-prima-later': true }, injectTo: 'head' as const })),
          )
        }
        return tags
      },
    },
  }
}

// The page's entry and what only it imports: never moved into the app's
// chunks, or the page would load the app with its first script.
// (the page, its two stylesheets, the wait, Vite's loader helpers)
const entryOnly =
  /(?:[\\/]index\.html|[\\/]src[\\/]main\.tsx|[\\/]src[\\/]app[\\/]first-paint\.ts|[\\/]src[\\/]styles[\\/]global\.css|vite[\\/](?:modulepreload-polyfill|preload-helper)(?:\.js)?)$/

// The build lands in web/dist, which the Go binary embeds. emptyOutDir is
// off because dist keeps a placeholder for go:embed; `make web` clears the rest.
export default defineConfig({
  plugins: [react(), preloadPages([{ page: '/src/start.tsx' }, { page: '/src/features/catalog/pages/HomePage.tsx', low: true, name: 'home' }])],
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
    // Two entries: the page's (main.tsx, with the global styles and the
    // wait for the first screen's paint) and the app's (start.tsx), which
    // main.tsx imports; the app's static graph makes the two chunks below.
    rolldownOptions: {
      input: {
        index: fileURLToPath(new URL('./index.html', import.meta.url)),
        start: fileURLToPath(new URL('./src/start.tsx', import.meta.url)),
      },
      output: {
        codeSplitting: {
          groups: [
            // Vite's loader helpers, used by both entries: on their own, or
            // they would land in the app's chunk and the page would load it.
            { name: 'loader', test: /vite[\\/](?:modulepreload-polyfill|preload-helper)/, priority: 3 },
            // antd-mobile's global styles, which the page links before ours
            // (main.tsx) and every antd-mobile component imports again.
            { name: 'base', test: /antd-mobile[\\/]es[\\/](?:global|utils[\\/]can-use-dom)/, priority: 4 },
            { name: 'vendor', test: (id) => /[\\/]node_modules[\\/]/.test(id) && !entryOnly.test(id), tags: ['$initial'], priority: 2 },
            { name: 'app', test: (id) => !entryOnly.test(id), tags: ['$initial'], priority: 1 },
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
