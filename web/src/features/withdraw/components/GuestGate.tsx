// What a guest sees on the money-out pages: payout accounts and withdrawals
// need a registered account with a password (docs/api.md: a guest gets 403
// "请先注册账号"), so the page says so and links to registration.
import { Link } from 'react-router'
import { t } from '@/i18n'
import { ApiError } from '@/lib/api'
import { StateView } from '@/components/StateView'
import styles from './ui.module.css'

// needsRegistration: the user is a guest, or the server said so.
export function needsRegistration(isGuest: boolean | undefined, ...errors: unknown[]): boolean {
  return isGuest === true || errors.some((e) => e instanceof ApiError && e.status === 403)
}

export function GuestGate() {
  return (
    <div className={styles.gate} data-testid="wd-guest">
      <StateView kind="empty" title={t('wd.guestTitle')} message={t('wd.guestHint')} />
      <Link to="/mine/register" className={styles.primary} data-testid="wd-register">
        {t('wd.guestAction')}
      </Link>
    </div>
  )
}
