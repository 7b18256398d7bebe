// The inline mark and public/favicon.svg stay one drawing.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { LOGO_PATH, LOGO_STOPS } from './Logo'

describe('Logo', () => {
  it('draws the favicon', () => {
    const svg = readFileSync(new URL('../../public/favicon.svg', import.meta.url), 'utf8')
    expect(svg).toContain(`d="${LOGO_PATH}"`)
    for (const c of LOGO_STOPS) expect(svg).toContain(`stop-color="${c}"`)
  })
})
