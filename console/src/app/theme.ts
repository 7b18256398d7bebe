// antd in zero-runtime mode: every style comes from antd/dist/antd.css, a
// static file, so the CSP can refuse inline styles. That file scopes its
// design tokens (CSS variables) under one class, css-var-_R_0_, the key
// antd's build got from React 19's useId; on React 18 (the phone app's, and
// so ours) useId answers :r0: and the tokens would not apply. Naming the key
// makes components carry the class the file expects (theme.test.ts reads
// the file, so an antd upgrade that changes it fails there).
//
// Zero-runtime still computes the design tokens and writes them as a
// <style> of CSS variables (the same ones antd.css already holds). The CSP
// would refuse each of those and log it; tokenSink, a detached element,
// receives them instead, so nothing reaches the page and nothing is refused.
import type { ThemeConfig } from 'antd'

export const CSS_VAR_KEY = 'css-var-_R_0_'

export const theme: ThemeConfig = { zeroRuntime: true, cssVar: { key: CSS_VAR_KEY } }

export const tokenSink: Element | undefined = typeof document === 'undefined' ? undefined : document.createElement('div')
