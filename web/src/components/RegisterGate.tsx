// What a guest sees on the earnings pages: commission, promoter
// applications and creator earnings need a registered account (the server
// answers a guest 403 "请先注册账号"), so the page says so and links to
// registration instead of showing an error.
import { Link } from 'react-router'
import { t } from '@/i18n'
import '@/i18n/earn'
import { ApiError } from '@/lib/api'
import { StateView } from './StateView'
import styles from './Earn.module.css'

// needsAccount: the user is a guest, or the server said so.
export function needsAccount(isGuest: boolean | undefined, ...errors: unknown[]): boolean {
  return isGuest === true || errors.some((e) => e instanceof ApiError && e.status === 403)
}

export function RegisterGate({ hint }: { hint?: string }) {
  return (
    <div className={styles.gate} data-testid="earn-guest">
      <StateView kind="empty" title={t('earn.guestTitle')} message={hint ?? t('earn.guestHint')} />
      <Link to="/mine/register" className={`${styles.primaryLink} prima-hit`} data-testid="earn-register">
        {t('earn.guestAction')}
      </Link>
    </div>
  )
}
