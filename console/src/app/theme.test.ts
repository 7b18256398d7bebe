import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { CSS_VAR_KEY } from './theme'

describe('antd static stylesheet', () => {
  it('scopes its design tokens under the key the console names', () => {
    const css = readFileSync(createRequire(import.meta.url).resolve('antd/dist/antd.css'), 'utf8')
    const root = new RegExp(`\\.${CSS_VAR_KEY}\\{([^}]*)\\}`).exec(css)?.[1] ?? ''
    expect(root.includes('--ant-color-primary:'), `.${CSS_VAR_KEY} defines the theme tokens`).toBe(true)
    expect(css.includes(`.${CSS_VAR_KEY}.ant-btn{`), `.${CSS_VAR_KEY}.ant-btn defines the button tokens`).toBe(true)
  })
})
