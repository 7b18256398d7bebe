// What a page or a table shows when its data did not come: the server's
// tip (or a network message), and a retry. 403 says the role cannot.
import { Button, Result } from 'antd'
import { ApiError } from '@/lib/api'
import { useT, type T } from '@/i18n'

export function errorTip(err: unknown, t: T): string {
  if (err instanceof ApiError) return err.kind === 'network' ? t('common.offline') : err.tip
  return t('common.error')
}

export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const t = useT()
  const forbidden = error instanceof ApiError && error.status === 403 && !error.needsStepUp
  return (
    <Result
      status={forbidden ? 'warning' : 'error'}
      title={forbidden ? t('common.forbidden') : t('common.error')}
      subTitle={errorTip(error, t)}
      extra={onRetry && !forbidden ? <Button onClick={onRetry}>{t('common.retry')}</Button> : null}
      data-testid="error-state"
    />
  )
}
