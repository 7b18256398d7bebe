// A route that failed to load (a chunk gone after a deploy, a render error)
// and a path no page has.
import { useNavigate, useRouteError } from 'react-router'
import { Button, Result } from 'antd'
import { useT } from '@/i18n'

export function RouteError() {
  const t = useT()
  const err = useRouteError()
  return (
    <Result
      status="error"
      title={t('common.error')}
      subTitle={err instanceof Error ? err.message : String(err)}
      extra={<Button onClick={() => window.location.reload()}>{t('common.retry')}</Button>}
    />
  )
}

export function NotFound() {
  const t = useT()
  const nav = useNavigate()
  return <Result status="404" title={t('common.notFound')} extra={<Button onClick={() => nav('/')}>{t('common.backHome')}</Button>} />
}
