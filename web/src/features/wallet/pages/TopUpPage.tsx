// usercoinchongzhi (/mine/usercoinchongzhi): the coin packages, the pay
// types of the chosen one, and paying (topay, then the provider's page).
// With ?orderNo= it is the result page the provider sends the payer back
// to: it polls the order until it is paid, cancelled or expired and offers
// the way back to where the payment started (?from=, or remembered).
import { useEffect, useRef, useState } from 'react'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { t } from '@/i18n'
import { getWalletSummary, moneyMoved, safeReturn } from '@/lib/purchase'
import { walletKeys, yuan } from '@/lib/wallet'
import { NavBar } from '@/components/NavBar'
import { Spinner } from '@/components/Spinner'
import { StateView } from '@/components/StateView'
import { useUserStore } from '@/stores/user'
import { payPageKeys } from '@/features/wallet/keys'
import { POLL_LIMIT, reportPayError, useOrder, usePackages } from '@/features/wallet/api/topup'
import { usePay } from '@/features/wallet/components/PayTypeSheet'
import { outcomeOf, payTypeName, recallReturn } from '@/features/wallet/result'
import type { CoinPackage, Order } from '@/features/wallet/types'
import styles from './Pay.module.css'

export default function TopUpPage() {
  const [params] = useSearchParams()
  const orderNo = params.get('orderNo') ?? ''
  const from = safeReturn(params.get('from') ?? (orderNo ? recallReturn(orderNo) : null))
  return (
    <div className={styles.page} data-testid="topup-page">
      <NavBar title={orderNo ? t('topup.result') : t('route.usercoinchongzhi.title')} back="/mine" />
      <main className={styles.body}>{orderNo ? <Result orderNo={orderNo} from={from} /> : <Packages from={from} />}</main>
    </div>
  )
}

function Packages({ from }: { from: string }) {
  const token = useUserStore((s) => s.token)
  const packages = usePackages(token)
  const wallet = useQuery({ queryKey: walletKeys.summary(token), queryFn: getWalletSummary, enabled: token != null })
  const [picked, setPicked] = useState<number | null>(null)
  const [payType, setPayType] = useState<string | null>(null)
  // The result page's back button returns to where the user came from
  // (?from=, e.g. a paywall), else Mine.
  const { pay, busy, error } = usePay(from)

  if (token == null) return <StateView kind="empty" title={t('mineVideos.signIn')} />
  if (packages.isPending) return <StateView kind="loading" />
  if (packages.isError) return <StateView kind="error" error={packages.error} onRetry={() => void packages.refetch()} />
  const list = packages.data
  if (list.length === 0) return <StateView kind="empty" title={t('topup.empty')} />

  const pkg: CoinPackage = list.find((p) => p.id === picked) ?? list[0]
  const code = pkg.payTypes.some((p) => p.code === payType) ? payType! : (pkg.payTypes[0]?.code ?? '')

  return (
    <>
      <section className={`${styles.section} ${styles.balanceRow}`}>
        <span className={styles.muted}>{t('topup.balance')}</span>
        <b className={styles.price} data-testid="topup-balance">
          {wallet.data ? wallet.data.coins : '—'}
        </b>
      </section>
      <section className={styles.section}>
        <fieldset className={styles.grid} data-testid="packages">
          <legend className={styles.sectionTitle}>{t('topup.packages')}</legend>
          {list.map((p) => (
            <label key={p.id} className={`${styles.pkg} ${p.id === pkg.id ? styles.pkgOn : ''}`} data-testid="package" data-id={p.id}>
              <input className="prima-sr-only" type="radio" name="package" checked={p.id === pkg.id} onChange={() => setPicked(p.id)} />
              {p.label && <span className={styles.label}>{p.label}</span>}
              <span className={styles.pkgCoins}>{t('userbuy.coins', { n: p.coins })}</span>
              {p.bonus > 0 && <span className={styles.pkgBonus}>{t('topup.bonus', { n: p.bonus })}</span>}
              <span className={styles.pkgPrice}>
                ¥{yuan(p.price)}
              </span>
              {p.originalPrice > p.price && <s className={styles.pkgWas}>¥{yuan(p.originalPrice)}</s>}
            </label>
          ))}
        </fieldset>
      </section>
      <section className={styles.section}>
        {pkg.payTypes.length === 0 ? (
          <p className={styles.muted}>{t('topup.noPayType')}</p>
        ) : (
          <fieldset className={styles.payTypes}>
            <legend className={styles.sectionTitle}>{t('topup.payType')}</legend>
            {pkg.payTypes.map((p) => (
              <label key={p.code} className={styles.payType}>
                <input type="radio" name="paytype" checked={p.code === code} onChange={() => setPayType(p.code)} data-testid="paytype" data-code={p.code} />
                {payTypeName(p)}
              </label>
            ))}
          </fieldset>
        )}
        <p className={`${styles.muted} ${styles.notice}`}>
          {t('topup.notice')}
        </p>
      </section>
      <div className={styles.payBar}>
        {error && (
          <p className={styles.payError} role="alert" data-testid="pay-error">
            {error}
          </p>
        )}
        <button
          type="button"
          className={styles.primary}
          disabled={busy || code === ''}
          onClick={() => pay({ productType: 'coins', productID: pkg.id, payType: code })}
          data-testid="topup-pay"
        >
          {busy ? t('topup.paying') : t('topup.pay', { n: yuan(pkg.price) })}
        </button>
      </div>
    </>
  )
}

function Result({ orderNo, from }: { orderNo: string; from: string }) {
  const token = useUserStore((s) => s.token)
  const uid = useUserStore((s) => s.user?.uid ?? null)
  const navigate = useNavigate()
  const q = useOrder(orderNo, token)
  const order = q.data
  const outcome = outcomeOf(order?.status)
  // Every poll re-renders (isFetching flips), so the count read here is current.
  const state = useQueryClient().getQueryState(payPageKeys.order(orderNo, token))
  const tries = (state?.dataUpdateCount ?? 0) + (state?.errorUpdateCount ?? 0)
  const slow = outcome === 'waiting' && tries >= POLL_LIMIT

  // Once per result: a success refreshes balances everywhere; a failure
  // the payer did not choose (expired, not found, too slow) is reported.
  const told = useRef('')
  const what = order === null ? 'notfound' : slow ? 'slow' : outcome
  useEffect(() => {
    if (told.current === what) return
    if (what === 'success') moneyMoved('topup')
    if (what === 'notfound' || what === 'slow' || (what === 'failed' && order?.status === 'expired')) {
      void reportPayError(
        {
          payname: order?.payType ?? '',
          payid: orderNo,
          paytype: order?.payType ?? '',
          payadds: order?.productType ?? '',
          emsg: what === 'notfound' ? 'order not found on the result page' : what === 'slow' ? `still pending after ${tries} checks` : 'order expired unpaid',
        },
        uid,
      )
    }
    told.current = what
  }, [what, order, orderNo, tries, uid])

  if (token == null) return <StateView kind="empty" title={t('mineVideos.signIn')} />
  if (q.isPending) return <Waiting orderNo={orderNo} />
  if (q.isError && order === undefined) return <StateView kind="error" error={q.error} onRetry={() => void q.refetch()} />
  if (order === null || order === undefined) {
    return (
      <div className={styles.result} data-testid="topup-result" data-outcome="notfound">
        <StateView kind="empty" title={t('topup.notFound')} message={t('topup.orderNo', { no: orderNo })} />
        <Actions from={from} again />
      </div>
    )
  }
  if (outcome === 'waiting') {
    return slow ? (
      <div className={styles.result} data-testid="topup-result" data-outcome="slow">
        <p className={styles.muted}>{t('topup.slow')}</p>
        <p className={styles.muted}>{t('topup.orderNo', { no: orderNo })}</p>
        <div className={styles.actions}>
          <button type="button" className={styles.secondary} onClick={() => navigate(from)}>
            {t('topup.back')}
          </button>
          <button type="button" className={styles.primary} onClick={() => void q.refetch()} data-testid="topup-check">
            {t('topup.checkAgain')}
          </button>
        </div>
      </div>
    ) : (
      <Waiting orderNo={orderNo} />
    )
  }
  return (
    <div className={styles.result} data-testid="topup-result" data-outcome={outcome} data-status={order.status} role="status">
      <span className={`${styles.mark} ${outcome === 'success' ? styles.ok : styles.bad}`} aria-hidden="true">
        {outcome === 'success' ? '✓' : '!'}
      </span>
      <h2>{outcome === 'success' ? t('topup.success') : t(`topup.${order.status as 'cancelled' | 'expired' | 'refunded'}`)}</h2>
      {outcome === 'success' ? <SuccessLine order={order} /> : <p className={styles.muted}>{t('topup.failedHint')}</p>}
      <p className={styles.muted}>
        ¥{yuan(order.amount)} · {t('topup.orderNo', { no: order.orderNo })}
      </p>
      <Actions from={from} again={outcome !== 'success' || order.productType === 'coins'} />
    </div>
  )
}

function SuccessLine({ order }: { order: Order }) {
  if (order.productType === 'vip') return <p data-testid="topup-credited">{t('topup.successVip', { name: order.title })}</p>
  return <p data-testid="topup-credited">{t('topup.successCoins', { n: order.coins + order.bonus })}</p>
}

function Waiting({ orderNo }: { orderNo: string }) {
  return (
    <div className={styles.result} data-testid="topup-result" data-outcome="waiting" aria-busy="true">
      <Spinner size={32} label={t('topup.waiting')} />
      <h2>{t('topup.waiting')}</h2>
      <p className={styles.muted}>{t('topup.waitingHint')}</p>
      <p className={styles.muted}>{t('topup.orderNo', { no: orderNo })}</p>
    </div>
  )
}

function Actions({ from, again }: { from: string; again: boolean }) {
  const navigate = useNavigate()
  return (
    <div className={styles.actions}>
      <button type="button" className={styles.primary} onClick={() => navigate(from, { replace: true })} data-testid="topup-back">
        {t('topup.back')}
      </button>
      {again && (
        <Link to="/mine/usercoinchongzhi" replace className={styles.secondary} data-testid="topup-again">
          {t('topup.again')}
        </Link>
      )}
    </div>
  )
}
