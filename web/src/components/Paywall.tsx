// The paywall over the player or pictures when the viewer may not see the
// whole thing (vid/info's and gallery/info's `paywall`): the server's tip
// and the one action that unlocks it. A coin price opens the purchase
// sheet when the page says what is sold (buy); the page refetches its
// detail in onBought, so the video plays at once.
import { useRef, useState } from 'react'
import { Link } from 'react-router'
import { t } from '@/i18n'
import { Intent, type BuyTarget } from '@/lib/purchase'
import { newIdempotencyKey } from '@/lib/wallet'
import { BuySheet } from './BuySheet'
import styles from './Paywall.module.css'

export interface PaywallInfo {
  reason: 'login' | 'need_vip' | 'need_svip' | 'need_coins' | string
  needVipLevel: number
  coins: number
  tip: string
  // vid/info's: how long the preview plays first; 0, no preview: the
  // paywall shows at once.
  previewMs?: number
}

export function Paywall({
  paywall,
  previewed,
  buy,
}: {
  paywall: PaywallInfo
  previewed?: boolean
  buy?: { target: BuyTarget; onBought: () => void }
}) {
  const [open, setOpen] = useState(false)
  // One intent per paywall: kept while the sheet is closed and reopened,
  // so a purchase whose answer was lost is retried with the same key.
  const intent = useRef<Intent | null>(null)
  intent.current ??= new Intent(() => newIdempotencyKey('buy'))

  let action
  if (paywall.reason === 'login') {
    action = (
      <Link to="/mine/login" className={styles.cta} data-testid="paywall-login">
        {t('paywall.login')}
      </Link>
    )
  } else if (paywall.reason === 'need_coins') {
    action = buy ? (
      <button type="button" className={styles.cta} onClick={() => setOpen(true)} data-testid="paywall-buy">
        {t('paywall.buy')}
      </button>
    ) : (
      <Link to="/mine/usercoinchongzhi" className={styles.cta} data-testid="paywall-topup">
        {t('buy.toTopUp')}
      </Link>
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
      {open && buy && (
        <BuySheet
          target={buy.target}
          price={paywall.coins}
          intent={intent.current}
          onClose={() => setOpen(false)}
          onBought={() => {
            setOpen(false)
            buy.onBought()
          }}
        />
      )}
    </div>
  )
}
