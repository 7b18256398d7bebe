// The purchase sheet of a paywall: pay the price in coins, or (videos only)
// with a movie coupon when the user has one; the balance, and a way to top
// up when it is short. One tap is one intent: its idempotency key (kept by
// the caller across closing and reopening the sheet) is resent when the
// answer was lost, so a retry never buys twice.
import { useState } from 'react'
import { Link, useLocation } from 'react-router'
import { useMutation, useQuery } from '@tanstack/react-query'
import { t } from '@/i18n'
import { ApiError } from '@/lib/api'
import {
  buy,
  getBackpack,
  getWalletSummary,
  isInsufficient,
  isRetryable,
  moneyMoved,
  purchaseKeys,
  topUpPath,
  unusedCoupons,
  type BuyTarget,
  type Intent,
} from '@/lib/purchase'
import { toast } from '@/lib/toast'
import { walletKeys } from '@/lib/wallet'
import { useUserStore } from '@/stores/user'
import { Sheet } from './Sheet'
import styles from './BuySheet.module.css'

export function BuySheet({
  target,
  price,
  intent,
  onClose,
  onBought,
}: {
  target: BuyTarget
  price: number
  intent: Intent
  onClose: () => void
  onBought: () => void
}) {
  const token = useUserStore((s) => s.token)
  const location = useLocation()
  const wallet = useQuery({ queryKey: walletKeys.summary(token), queryFn: getWalletSummary, enabled: token != null })
  const couponsOK = target.kind === 'video'
  const backpack = useQuery({ queryKey: purchaseKeys.backpack(token), queryFn: getBackpack, enabled: token != null && couponsOK })
  const coupons = couponsOK ? unusedCoupons(backpack.data) : 0
  const [choice, setChoice] = useState<'coins' | 'coupon' | null>(null)
  const useCoupon = (choice ?? (coupons > 0 ? 'coupon' : 'coins')) === 'coupon' && coupons > 0
  const [problem, setProblem] = useState<string | null>(null)

  const m = useMutation({
    mutationFn: (withCoupon: boolean) => buy(target, withCoupon, intent.keyFor({ ...target, useCoupon: withCoupon })),
    onSuccess: () => {
      intent.settle()
      toast.success(t('buy.done'))
      moneyMoved('buy')
      onBought()
    },
    onError: (err) => {
      if (isRetryable(err)) {
        setProblem(t('buy.retry'))
        return
      }
      intent.settle()
      if (err instanceof ApiError && err.status === 409 && err.tip.includes('已购买')) {
        toast.text(t('buy.already'))
        onBought()
        return
      }
      if (isInsufficient(err)) void wallet.refetch()
      setProblem(err instanceof ApiError ? err.tip : String(err))
    },
  })

  const balance = wallet.data?.coins
  const short = !useCoupon && balance != null && balance < price ? price - balance : 0
  const from = location.pathname + location.search

  return (
    <Sheet title={t('buy.confirmTitle')} onClose={onClose} testid="buy-sheet">
      <fieldset className={styles.options}>
        <legend className="prima-sr-only">{t('buy.confirmTitle')}</legend>
        <label className={`${styles.option} ${!useCoupon ? styles.on : ''}`}>
          <input
            type="radio"
            name="buy-with"
            checked={!useCoupon}
            onChange={() => setChoice('coins')}
            data-testid="buy-with-coins"
          />
          {t('buy.payCoins', { n: price })}
        </label>
        {coupons > 0 && (
          <label className={`${styles.option} ${useCoupon ? styles.on : ''}`}>
            <input
              type="radio"
              name="buy-with"
              checked={useCoupon}
              onChange={() => setChoice('coupon')}
              data-testid="buy-with-coupon"
            />
            {t('buy.useCoupon', { n: coupons })}
          </label>
        )}
      </fieldset>
      <p className={styles.balance} data-testid="buy-balance">
        {balance == null ? t('buy.balanceLoading') : t('buy.balance', { n: balance })}
      </p>
      {short > 0 && (
        <p className={styles.short} role="status" data-testid="buy-short">
          {t('buy.short', { n: short })}
        </p>
      )}
      {problem && short === 0 && (
        <p className={styles.error} role="alert" data-testid="buy-error">
          {problem}
        </p>
      )}
      <div className={styles.row}>
        <button type="button" className={styles.secondary} onClick={onClose} data-testid="buy-cancel">
          {t('common.cancel')}
        </button>
        {short > 0 ? (
          <Link to={topUpPath(from)} className={styles.primary} data-testid="buy-topup">
            {t('buy.toTopUp')}
          </Link>
        ) : (
          <button
            type="button"
            className={styles.primary}
            // Not before the coupons are known: the choice offered may change.
            disabled={m.isPending || (couponsOK && backpack.isPending) || (balance == null && !useCoupon && !wallet.isError)}
            onClick={() => {
              setProblem(null)
              m.mutate(useCoupon)
            }}
            data-testid="buy-confirm"
          >
            {m.isPending ? t('buy.buying') : t('buy.confirm')}
          </button>
        )}
      </div>
    </Sheet>
  )
}
