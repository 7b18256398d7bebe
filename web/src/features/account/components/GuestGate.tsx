// What a guest sees on the pages that need an account with a password
// (binding a phone, changing the password): why, and the way to register.
import { Link } from 'react-router'
import { t } from '@/i18n'
import styles from './Ways.module.css'

export function RegisterGate() {
  return (
    <div className={styles.gate} data-testid="ways-guest-gate">
      <p className={styles.gateTitle}>{t('ways.guest.title')}</p>
      <p className={styles.gateHint}>{t('ways.guest.hint')}</p>
      <Link to="/mine/register" className={`${styles.gateAction} prima-hit`} data-testid="ways-guest-register">
        {t('ways.guest.action')}
      </Link>
    </div>
  )
}
