// Toasts (spec §4: text, loading, success, fail, html; §9: 2000 ms by
// default) over antd-mobile's Toast. Pure modules (api.ts) import this file
// only, so their tests can mock it without antd.
//
// antd-mobile's Toast (its mask, spinner and icons, about 9 kB gzip, and
// the 17 kB animation library under them) is code no first screen needs,
// so it is not in the start-up bundle: it loads on the first toast, or
// earlier, once the page has loaded and the browser is idle (so a toast
// later, a network error included, shows at once). Until it has arrived a
// toast is queued and the handler returned still closes it; after that
// every call goes straight to antd-mobile, as before.

// The global import brings the CSS variables the toast styles read (the
// entry imports it too, so it costs nothing here).
import 'antd-mobile/es/global'
import type { ToastHandler, ToastShowProps } from 'antd-mobile/es/components/toast'
import { createElement, type ReactNode } from 'react'
import { t } from '@/i18n'

export const TOAST_DURATION = 2000

type ToastModule = typeof import('antd-mobile/es/components/toast').default

let antd: ToastModule | null = null
let loading: Promise<ToastModule> | null = null
// clear() before the code arrives drops the toasts queued until then.
let generation = 0

// preloadToast fetches antd-mobile's Toast (once; a failed fetch is tried
// again on the next call).
export function preloadToast(): Promise<ToastModule> {
  loading ??= import('antd-mobile/es/components/toast')
    .then((m) => (antd = m.default))
    .catch((err: unknown) => {
      loading = null
      throw err
    })
  return loading
}

function show(props: ToastShowProps): ToastHandler {
  if (antd) return antd.show(props)
  const gen = generation
  let shown: ToastHandler | null = null
  let closed = false
  preloadToast().then(
    (T) => {
      if (!closed && gen === generation) shown = T.show(props)
    },
    () => undefined, // no toast code (offline): nothing to show it with
  )
  return {
    close() {
      closed = true
      shown?.close()
    },
  }
}

export const toast = {
  text(content: ReactNode, duration = TOAST_DURATION): ToastHandler {
    return show({ content, duration })
  },
  // A loading toast usually waits for work to finish: pass duration 0 and
  // call toast.clear() (or the handler's close) when done.
  loading(content: ReactNode = t('toast.loading'), duration = TOAST_DURATION): ToastHandler {
    return show({ content, icon: 'loading', duration, maskClickable: false })
  },
  success(content: ReactNode, duration = TOAST_DURATION): ToastHandler {
    return show({ content, icon: 'success', duration })
  },
  fail(content: ReactNode, duration = TOAST_DURATION): ToastHandler {
    return show({ content, icon: 'fail', duration })
  },
  // html renders markup as given: only for strings the app itself wrote,
  // never for text from the server or a user.
  html(content: string, duration = TOAST_DURATION): ToastHandler {
    return show({ content: createElement('div', { dangerouslySetInnerHTML: { __html: content } }), duration })
  },
  clear(): void {
    generation++
    antd?.clear()
  },
}

// IDLE_PRELOAD_DELAY_MS after the load event, when the browser is idle: late
// enough to stay out of the way of the first screen's data and images.
export const IDLE_PRELOAD_DELAY_MS = 2000

if (typeof window !== 'undefined' && typeof document !== 'undefined') {
  const idle = (cb: () => void) =>
    typeof window.requestIdleCallback === 'function' ? window.requestIdleCallback(cb, { timeout: 3000 }) : setTimeout(cb, 0)
  const schedule = () => setTimeout(() => idle(() => void preloadToast().catch(() => undefined)), IDLE_PRELOAD_DELAY_MS)
  if (document.readyState === 'complete') schedule()
  else window.addEventListener('load', schedule, { once: true })
}
