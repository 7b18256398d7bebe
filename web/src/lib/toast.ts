// Toasts (spec §4: text, loading, success, fail, html; §9: 2000 ms by
// default) over antd-mobile's Toast. The per-component import keeps the
// rest of antd-mobile out of bundles that only toast; the global import
// brings the CSS variables the toast styles read. Pure modules (api.ts)
// import this file only, so their tests can mock it without antd.
import 'antd-mobile/es/global'
import Toast, { type ToastHandler } from 'antd-mobile/es/components/toast'
import { createElement, type ReactNode } from 'react'
import { t } from '../i18n'

export const TOAST_DURATION = 2000

export const toast = {
  text(content: ReactNode, duration = TOAST_DURATION): ToastHandler {
    return Toast.show({ content, duration })
  },
  // A loading toast usually waits for work to finish: pass duration 0 and
  // call toast.clear() (or the handler's close) when done.
  loading(content: ReactNode = t('toast.loading'), duration = TOAST_DURATION): ToastHandler {
    return Toast.show({ content, icon: 'loading', duration, maskClickable: false })
  },
  success(content: ReactNode, duration = TOAST_DURATION): ToastHandler {
    return Toast.show({ content, icon: 'success', duration })
  },
  fail(content: ReactNode, duration = TOAST_DURATION): ToastHandler {
    return Toast.show({ content, icon: 'fail', duration })
  },
  // html renders markup as given: only for strings the app itself wrote,
  // never for text from the server or a user.
  html(content: string, duration = TOAST_DURATION): ToastHandler {
    return Toast.show({ content: createElement('div', { dangerouslySetInnerHTML: { __html: content } }), duration })
  },
  clear(): void {
    Toast.clear()
  },
}
