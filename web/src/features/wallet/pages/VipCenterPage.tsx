// vipcenter (/mine/vipcenter): the VIP and super VIP cards in two tabs
// (?level=2 opens super VIP), each tier's benefits, the caller's expiry of
// each tier, the new-user offer with its countdown ticking each second,
// and buying: with coins (a confirmation sheet; short of coins -> top-up)
// or with money (a pay type, then the provider's page).
import { useEffect, useRef, useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { t, type MessageKey } from '@/i18n'
import { ApiError } from '@/lib/api'
import { getWalletSummary, Intent, isInsufficient, isRetryable, moneyMoved, topUpPath } from '@/lib/purchase'
import { toast } from '@/lib/toast'
import { newIdempotencyKey, walletKeys, yuan } from '@/lib/wallet'
import { NavBar } from '@/components/NavBar'
import { Sheet } from '@/components/Sheet'
import { StateView } from '@/components/StateView'
import { useUserStore } from '@/stores/user'
import { buyVip, useTiro, useVipProducts } from '@/features/wallet/api/vip'
import { payPageKeys } from '@/features/wallet/keys'
import { PayTypeSheet, usePay } from '@/features/wallet/components/PayTypeSheet'
import { clock, discountPercent, secondsLeftAt, shanghaiDate, tierActive } from '@/features/wallet/result'
import type { PayType, VipProduct } from '@/features/wallet/types'
import styles from './Pay.module.css'

const BENEFITS: Record<1 | 2, MessageKey[]> = {
  1: ['vipc.b.vip1', 'vipc.b.vip2', 'vipc.b.vip3'],
  2: ['vipc.b.svip1', 'vipc.b.svip2', 'vipc.b.svip3'],
}

const tierName = (level: 1 | 2) => (level === 2 ? t('vip.super') : t('vip.vip'))

export default function VipCenterPage() {
  const token = useUserStore((s) => s.token)
  const [params, setParams] = useSearchParams()
  const level: 1 | 2 = params.get('level') === '2' ? 2 : 1
  const products = useVipProducts(token)
  const tiro = useTiro(token)
  const [buying, setBuying] = useState<{ product: VipProduct; how: 'coins' | 'money' } | null>(null)

  // The providers a card can be paid through with money come with the cards.
  const payTypes: PayType[] = products.data?.payTypes ?? []

  let body
  if (token == null) body = <StateView kind="empty" title={t('mineVideos.signIn')} />
  else if (products.isPending) body = <StateView kind="loading" />
  else if (products.isError) body = <StateView kind="error" error={products.error} onRetry={() => void products.refetch()} />
  else {
    const cards = products.data.list.filter((p) => p.level === level && !p.newUser)
    const { vip, svip } = products.data.tiers
    const now = Date.now()
    body = (
      <>
        <section className={styles.status} data-testid="vip-status">
          {([1, 2] as const).map((l) => {
            const until = l === 2 ? svip : vip
            return (
              <p key={l} data-testid={`vip-tier-${l}`}>
                {tierActive(until, now) ? (
                  <strong>{t('vipc.until', { tier: tierName(l), date: shanghaiDate(until) })}</strong>
                ) : (
                  t('vipc.notActive', { tier: tierName(l) })
                )}
              </p>
            )
          })}
          <Link to="/mine/backpack" className={styles.statusLink} data-testid="vip-backpack">
            {t('vipc.backpack')}
          </Link>
        </section>

        {tiro.data?.isNew && tiro.data.offer && tiro.data.secondsLeft > 0 && (
          <Offer
            offer={tiro.data.offer}
            secondsLeft={tiro.data.secondsLeft}
            receivedAt={tiro.dataUpdatedAt}
            onBuy={(how) => setBuying({ product: tiro.data!.offer!, how })}
            canPayMoney={payTypes.length > 0}
          />
        )}

        <div className={styles.tabs} role="tablist" aria-label={t('route.vipcenter.title')}>
          {([1, 2] as const).map((l) => (
            <button
              key={l}
              type="button"
              role="tab"
              aria-selected={level === l}
              className={`${styles.tab} ${l === 2 ? styles.tabSvip : ''} ${level === l ? styles.tabOn : ''}`}
              onClick={() => setParams(l === 1 ? {} : { level: '2' }, { replace: true })}
              data-testid="vip-tab"
              data-level={l}
            >
              {l === 2 ? t('vipc.tabSvip') : t('vipc.tabVip')}
            </button>
          ))}
        </div>

        <div role="tabpanel">
          <section className={styles.section}>
            <h2 className={styles.sectionTitle}>{t('vipc.benefits')}</h2>
            <ul className={styles.benefits}>
              {BENEFITS[level].map((k) => (
                <li key={k}>{t(k)}</li>
              ))}
            </ul>
          </section>
          {cards.length === 0 ? (
            <StateView kind="empty" title={t('vipc.empty')} />
          ) : (
            <ul className={styles.cards} data-testid="vip-cards">
              {cards.map((p) => (
                <li key={p.id}>
                  <ProductCard product={p} canPayMoney={payTypes.length > 0} onBuy={(how) => setBuying({ product: p, how })} />
                </li>
              ))}
            </ul>
          )}
        </div>
      </>
    )
  }

  return (
    <div className={styles.page} data-testid="vipcenter-page">
      <NavBar title={t('route.vipcenter.title')} back="/mine" />
      <main className={styles.body}>{body}</main>
      {buying?.how === 'coins' && <CoinsSheet product={buying.product} onClose={() => setBuying(null)} />}
      {buying?.how === 'money' && <MoneySheet product={buying.product} payTypes={payTypes} onClose={() => setBuying(null)} />}
    </div>
  )
}

function Offer({
  offer,
  secondsLeft,
  receivedAt,
  onBuy,
  canPayMoney,
}: {
  offer: VipProduct
  secondsLeft: number
  receivedAt: number
  onBuy: (how: 'coins' | 'money') => void
  canPayMoney: boolean
}) {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(id)
  }, [])
  const left = secondsLeftAt(secondsLeft, receivedAt || now, now)
  if (left <= 0) return null
  return (
    <section className={styles.offer} data-testid="vip-offer">
      <h2>{t('vipc.newUser')} · {offer.name}</h2>
      {/* The ticking figure is hidden from screen readers, which would read it every second. */}
      <p className={styles.countdown} aria-hidden="true">
        {t('vipc.countdown')}{' '}
        <span className={styles.clock} data-testid="vip-countdown">
          {clock(left)}
        </span>
      </p>
      <ProductCard product={offer} canPayMoney={canPayMoney} onBuy={onBuy} />
    </section>
  )
}

function ProductCard({ product: p, canPayMoney, onBuy }: { product: VipProduct; canPayMoney: boolean; onBuy: (how: 'coins' | 'money') => void }) {
  const off = discountPercent(p.price, p.originalPrice)
  return (
    <article className={styles.card} data-testid="vip-card" data-id={p.id} data-level={p.level}>
      {(p.label || p.newUser) && <span className={styles.label}>{p.label || t('vipc.newUser')}</span>}
      <div className={styles.cardHead}>
        <h3 className={styles.cardName}>{p.name}</h3>
        <span className={styles.price}>
          ¥{yuan(p.price)}
          {off > 0 && <s className={styles.was}>¥{yuan(p.originalPrice)}</s>}
        </span>
      </div>
      <p className={styles.facts}>
        <span>{t('vipc.days', { n: p.days })}</span>
        {p.coins > 0 && <span>{t('vipc.coins', { n: p.coins })}</span>}
        {p.coupons > 0 && <span>{t('vipc.coupons', { n: p.coupons })}</span>}
      </p>
      <div className={styles.actions}>
        {p.coins > 0 && (
          <button type="button" className={styles.secondary} onClick={() => onBuy('coins')} data-testid="vip-buy-coins">
            {t('vipc.payCoins', { n: p.coins })}
          </button>
        )}
        {canPayMoney && (
          <button type="button" className={styles.primary} onClick={() => onBuy('money')} data-testid="vip-buy-money">
            {t('vipc.payMoney', { n: yuan(p.price) })}
          </button>
        )}
      </div>
    </article>
  )
}

function CoinsSheet({ product, onClose }: { product: VipProduct; onClose: () => void }) {
  const token = useUserStore((s) => s.token)
  const setUser = useUserStore((s) => s.setUser)
  const qc = useQueryClient()
  const wallet = useQuery({ queryKey: walletKeys.summary(token), queryFn: getWalletSummary, enabled: token != null })
  const intent = useRef(new Intent(() => newIdempotencyKey('vip')))
  const [problem, setProblem] = useState<string | null>(null)
  const m = useMutation({
    mutationFn: () => buyVip(product.id, intent.current.keyFor(product.id)),
    onSuccess: (r) => {
      intent.current.settle()
      setUser(r.user)
      qc.setQueryData(walletKeys.summary(token), r.wallet)
      moneyMoved('buy_vip')
      toast.success(t('vipc.done'))
      onClose()
    },
    onError: (err) => {
      if (isRetryable(err)) {
        setProblem(t('buy.retry'))
        return
      }
      intent.current.settle()
      if (isInsufficient(err)) void wallet.refetch()
      // A new-user offer had already (on this account or this phone): the
      // sheet says so and the offer leaves the page behind it.
      if (err instanceof ApiError && err.status === 409) void qc.invalidateQueries({ queryKey: payPageKeys.all })
      setProblem(err instanceof ApiError ? err.tip : String(err))
    },
  })
  const balance = wallet.data?.coins
  const short = balance != null && balance < product.coins ? product.coins - balance : 0
  return (
    <Sheet title={t('vipc.confirmTitle', { name: product.name })} onClose={onClose} testid="vip-coins-sheet">
      <p className={styles.muted}>{t('vipc.confirmCoins', { n: product.coins, tier: tierName(product.level), days: product.days })}</p>
      <p className={styles.muted} data-testid="buy-balance">
        {balance == null ? t('buy.balanceLoading') : t('buy.balance', { n: balance })}
      </p>
      {short > 0 && (
        <p className={styles.payError} role="status" data-testid="buy-short">
          {t('buy.short', { n: short })}
        </p>
      )}
      {problem && short === 0 && (
        <p className={styles.payError} role="alert" data-testid="buy-error">
          {problem}
        </p>
      )}
      <div className={`${styles.actions} ${styles.sheetActions}`}>
        <button type="button" className={styles.secondary} onClick={onClose}>
          {t('common.cancel')}
        </button>
        {short > 0 ? (
          <Link to={topUpPath('/mine/vipcenter')} className={styles.primary} data-testid="buy-topup">
            {t('buy.toTopUp')}
          </Link>
        ) : (
          <button
            type="button"
            className={styles.primary}
            disabled={m.isPending || (balance == null && !wallet.isError)}
            onClick={() => {
              setProblem(null)
              m.mutate()
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

function MoneySheet({ product, payTypes, onClose }: { product: VipProduct; payTypes: PayType[]; onClose: () => void }) {
  const { pay, busy, error } = usePay('/mine/vipcenter')
  const qc = useQueryClient()
  // A refused order (the new-user offer already had) may change what the
  // page offers: ask again.
  useEffect(() => {
    if (error) void qc.invalidateQueries({ queryKey: payPageKeys.all })
  }, [error, qc])
  return (
    <PayTypeSheet
      title={t('vipc.confirmTitle', { name: product.name })}
      amount={product.price}
      payTypes={payTypes}
      busy={busy}
      error={error}
      onClose={onClose}
      onPay={(payType) => pay({ productType: 'vip', productID: product.id, payType })}
    />
  )
}
