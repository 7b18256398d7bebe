// The console's providers: antd in zero-runtime mode (its styles come from
// antd/dist/antd.css, so the CSP can forbid inline styles; the two <style>
// elements its helpers still write, a scrollbar measure and the scroll lock
// behind dialogs, are refused and harmless: the measure falls back to the
// browser's scrollbar, styles.css locks the page), the language, TanStack Query, the router, and
// the two things the client asks of the app: where a 401 goes and who asks
// for a step-up code.
import { useEffect } from 'react'
import { createBrowserRouter, RouterProvider } from 'react-router'
import { QueryClientProvider } from '@tanstack/react-query'
import { App as AntApp, ConfigProvider } from 'antd'
import { StyleProvider } from '@ant-design/cssinjs'
import zhCN from 'antd/locale/zh_CN'
import enUS from 'antd/locale/en_US'
import dayjs from 'dayjs'
import 'dayjs/locale/zh-cn'
import { useLang } from '@/i18n'
import { setUnauthorizedHandler } from '@/lib/client'
import { clearSession } from '@/lib/session-store'
import { queryClient } from './query-client'
import { routes } from './routes'
import { theme, tokenSink } from './theme'
import { StepUpHost } from './StepUp'

export const router = createBrowserRouter(routes, { basename: '/admin' })

// A call that answers 401 means this console session is over: forget it and
// go to the sign-in page, which comes back here after.
setUnauthorizedHandler(() => {
  clearSession()
  queryClient.clear()
  const { pathname, search } = router.state.location
  if (pathname === '/login') return
  const next = pathname + search
  void router.navigate(next === '/' ? '/login' : `/login?next=${encodeURIComponent(next)}`, { replace: true, state: { notice: 'expired' } })
})

export function App() {
  const lang = useLang()
  useEffect(() => {
    dayjs.locale(lang === 'en' ? 'en' : 'zh-cn')
    document.documentElement.lang = lang
  }, [lang])
  return (
    <StyleProvider container={tokenSink}>
      <ConfigProvider locale={lang === 'en' ? enUS : zhCN} theme={theme}>
        <AntApp>
          <QueryClientProvider client={queryClient}>
            <RouterProvider router={router} />
            <StepUpHost />
          </QueryClientProvider>
        </AntApp>
      </ConfigProvider>
    </StyleProvider>
  )
}
