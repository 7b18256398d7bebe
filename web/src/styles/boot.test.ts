// The boot mark in global.css is public/favicon.svg inlined as a data URI
// (so the first frame has the logo without a request); this keeps the two
// from drifting apart when the logo changes.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const read = (rel: string) => readFileSync(new URL(rel, import.meta.url), 'utf8')
// Markup compared as the browser would draw it: whitespace between tags and
// the quote style do not matter.
const normal = (svg: string) => svg.replace(/\s+/g, ' ').replace(/>\s+</g, '><').replace(/"/g, "'").trim()

describe('boot mark', () => {
  it('is the favicon, inlined', () => {
    const css = read('./global.css')
    const rule = /\.prima-boot \{[^}]*\}/.exec(css)?.[0]
    expect(rule).toBeDefined()
    const uri = /url\("data:image\/svg\+xml,([^"]+)"\)/.exec(rule!)?.[1]
    expect(uri).toBeDefined()
    expect(normal(decodeURIComponent(uri!))).toBe(normal(read('../../public/favicon.svg')))
  })
})
