// The paywall over the player when the viewer may not watch the whole video
// (vid/info's `paywall`): the server's tip and the one action that unlocks
// it. Coins are sold by the wallet, which is not built yet: the buy button
// says so instead of pretending to take a payment.
import { useState } from 'react'
import { Link } from 'react-router'
import { t } from '@/i18n'
import styles from './Paywall.module.css'

export interface PaywallInfo {
  reason: 'login' | 'need_vip' | 'need_svip' | 'need_coins' | string
  needVipLevel: number
  coins: number
  tip: string
}

export function Paywall({ paywall, previewed }: { paywall: PaywallInfo; previewed?: boolean }) {
  const [walletNote, setWalletNote] = useState(false)
  let action
  if (paywall.reason === 'login') {
    action = (
      <Link to="/mine/login" className={styles.cta} data-testid="paywall-login">
        {t('paywall.login')}
      </Link>
    )
  } else if (paywall.reason === 'need_coins') {
    action = walletNote ? (
      <p className={styles.note} role="status" data-testid="paywall-wallet-note">
        {t('paywall.walletSoon')}
      </p>
    ) : (
      <button type="button" className={styles.cta} onClick={() => setWalletNote(true)} data-testid="paywall-buy">
        {t('paywall.buy')}
      </button>
    )
  } else {
    action = (
      <Link to="/mine/vipcenter" className={styles.cta} data-testid="paywall-vip">
        {paywall.needVipLevel >= 2 ? t('paywall.svip') : t('paywall.vip')}
      </Link>
    )
  }
  return (
    <div className={styles.box} data-testid="paywall" data-reason={paywall.reason}>
      {previewed && <p className={styles.ended}>{t('paywall.previewEnded')}</p>}
      <p className={styles.tip}>{paywall.tip}</p>
      {paywall.coins > 0 && (
        <p className={styles.price} data-testid="paywall-price">
          {t('paywall.price', { n: paywall.coins })}
        </p>
      )}
      {action}
    </div>
  )
}
