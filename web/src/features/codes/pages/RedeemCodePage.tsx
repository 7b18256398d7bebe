// duihuancode (/mine/duihuancode): type or paste a redemption code, redeem
// it, see what it granted (with the way to each part: coins, VIP centre,
// backpack), and the caller's past redemptions below.
// Codes are typed grouped and upper-cased as they go; the server's tip
// (invalid, expired, used up, redeemed before, too many tries) shows under
// the field. A guest has a token and may redeem (docs/api.md).
import { useRef, useState, type FormEvent } from 'react'
import { Link } from 'react-router'
import { useQuery } from '@tanstack/react-query'
import { t } from '@/i18n'
import { ApiError } from '@/lib/api'
import { isOfflineError } from '@/lib/network'
import { getWalletSummary } from '@/lib/purchase'
import { walletKeys } from '@/lib/wallet'
import { LoadMore } from '@/components/LoadMore'
import { NavBar } from '@/components/NavBar'
import { Sheet } from '@/components/Sheet'
import { Spinner } from '@/components/Spinner'
import { StateView } from '@/components/StateView'
import { useUserStore } from '@/stores/user'
import { useRecords, useRedeem, type Redemption } from '@/features/codes/api/codes'
import { codeProblem, formatCode, recordTime, rewardParts, type Reward, type RewardPart } from '@/features/codes/format'
import styles from './codes.module.css'

function partText(p: RewardPart): string {
  switch (p.kind) {
    case 'coins':
      return t('codes.coins', { n: p.n })
    case 'vip':
      return t(p.level === 2 ? 'codes.svip' : 'codes.vip', { days: p.days })
    case 'coupons':
      return t('codes.coupons', { n: p.n })
  }
}

function rewardText(r: Reward): string {
  return rewardParts(r).map(partText).join(' + ')
}

const PART_LINK = {
  coins: { to: '/mine/usercoinrecords', label: 'codes.toWallet' },
  vip: { to: '/mine/vipcenter', label: 'codes.toVip' },
  coupons: { to: '/mine/backpack', label: 'codes.toBackpack' },
} as const

function SuccessSheet({ red, onClose }: { red: Redemption; onClose: () => void }) {
  const parts = rewardParts(red.reward)
  return (
    <Sheet title={t('codes.successTitle')} onClose={onClose} testid="codes-success">
      <p className={styles.from}>{t('codes.successFrom', { name: red.name })}</p>
      <ul className={styles.parts}>
        {parts.map((p) => (
          <li key={p.kind} className={styles.part} data-testid={`codes-part-${p.kind}`}>
            <span className={styles.partText}>{partText(p)}</span>
            <Link to={PART_LINK[p.kind].to} className={`${styles.partLink} prima-hit`} data-testid={`codes-link-${p.kind}`}>
              {t(PART_LINK[p.kind].label)}
            </Link>
          </li>
        ))}
      </ul>
      <button type="button" className={`${styles.primary} prima-hit`} onClick={onClose} data-testid="codes-done">
        {t('codes.done')}
      </button>
    </Sheet>
  )
}

function Records({ token }: { token: string }) {
  const q = useRecords(token)
  if (q.isPending) return <StateView kind="loading" compact />
  if (q.isError && !q.data) return <StateView kind="error" compact error={q.error} onRetry={() => void q.refetch()} />
  const items = q.data?.pages.flatMap((p) => p.list) ?? []
  if (items.length === 0) return <StateView kind="empty" compact title={t('codes.recordsEmpty')} />
  return (
    <>
      <ul className={styles.records} data-testid="codes-records">
        {items.map((r) => (
          <li key={r.id} className={styles.record} data-testid="codes-record">
            <div className={styles.recordMain}>
              <p className={styles.recordTitle}>{r.name}</p>
              <p className={styles.recordSub}>
                <span className={styles.mono}>{r.code}</span> · <span className={styles.nowrap}>{recordTime(r.createdAt)}</span>
              </p>
            </div>
            <p className={styles.recordReward}>{rewardText(r.reward)}</p>
          </li>
        ))}
      </ul>
      <LoadMore hasMore={q.hasNextPage} loading={q.isFetchingNextPage} error={q.isFetchNextPageError} onLoad={() => void q.fetchNextPage()} />
    </>
  )
}

export default function RedeemCodePage() {
  const token = useUserStore((s) => s.token)
  const [code, setCode] = useState('')
  const [touched, setTouched] = useState(false)
  const [serverError, setServerError] = useState<string | null>(null)
  const [done, setDone] = useState<Redemption | null>(null)
  const input = useRef<HTMLInputElement>(null)
  const redeem = useRedeem()
  const wallet = useQuery({ queryKey: walletKeys.summary(token), queryFn: getWalletSummary, enabled: token != null })

  // Reading the clipboard needs a secure page and a browser that offers it.
  const canPaste = typeof navigator !== 'undefined' && typeof navigator.clipboard?.readText === 'function'
  const problem = codeProblem(code)
  const localError = touched && problem ? t(problem === 'chars' ? 'codes.chars' : 'codes.short') : null
  const error = serverError ?? (problem === 'chars' ? t('codes.chars') : localError)

  const change = (v: string) => {
    setCode(formatCode(v))
    setServerError(null)
  }

  const paste = async () => {
    try {
      const text = await navigator.clipboard.readText()
      change(text)
      input.current?.focus()
    } catch {
      input.current?.focus() // no permission: the field's own paste works
    }
  }

  const submit = (e: FormEvent) => {
    e.preventDefault()
    setTouched(true)
    if (problem || redeem.isPending || token == null) return
    setServerError(null)
    redeem.mutate(code, {
      onSuccess: (red) => {
        setDone(red)
        setCode('')
        setTouched(false)
      },
      onError: (err) => {
        if (isOfflineError(err)) setServerError(t('offline.title'))
        else setServerError(err instanceof ApiError && err.tip ? err.tip : t('codes.failed'))
      },
    })
  }

  return (
    <div className={styles.page} data-testid="codes-page">
      <NavBar title={t('route.duihuancode.title')} back="/mine" />
      <main className={styles.body}>
        {token == null ? (
          <StateView kind="empty" title={t('codes.signIn')} />
        ) : (
          <>
            <form className={styles.card} onSubmit={submit} noValidate>
              <label htmlFor="codes-input" className={styles.label}>
                {t('codes.label')}
              </label>
              <div className={`${styles.field} ${error ? styles.fieldBad : ''}`}>
                <input
                  id="codes-input"
                  ref={input}
                  className={styles.input}
                  value={code}
                  onChange={(e) => change(e.target.value)}
                  onBlur={() => code && setTouched(true)}
                  placeholder={t('codes.placeholder')}
                  autoComplete="one-time-code"
                  autoCapitalize="characters"
                  autoCorrect="off"
                  spellCheck={false}
                  inputMode="text"
                  enterKeyHint="go"
                  maxLength={14}
                  aria-invalid={error ? true : undefined}
                  aria-describedby="codes-msg"
                  data-testid="codes-input"
                />
                {code ? (
                  <button type="button" className={`${styles.fieldBtn} prima-hit`} onClick={() => change('')} data-testid="codes-clear">
                    {t('codes.clear')}
                  </button>
                ) : (
                  canPaste && (
                    <button type="button" className={`${styles.fieldBtn} prima-hit`} onClick={() => void paste()} data-testid="codes-paste">
                      {t('codes.paste')}
                    </button>
                  )
                )}
              </div>
              <p id="codes-msg" className={error ? styles.error : styles.hint} role={error ? 'alert' : undefined} data-testid={error ? 'codes-error' : 'codes-hint'}>
                {error ?? t('codes.hint')}
              </p>
              <button type="submit" className={`${styles.primary} prima-hit`} disabled={redeem.isPending || problem != null} data-testid="codes-submit">
                {redeem.isPending ? (
                  <>
                    <Spinner size={16} label={t('codes.submitting')} /> {t('codes.submitting')}
                  </>
                ) : (
                  t('codes.submit')
                )}
              </button>
              <p className={styles.balance} data-testid="codes-balance">
                {wallet.data ? t('codes.balance', { n: wallet.data.coins }) : '\u00a0'}
              </p>
            </form>
            <p className={styles.rules}>{t('codes.rules')}</p>
            <h2 className={styles.sectionTitle}>{t('codes.records')}</h2>
            <Records token={token} />
          </>
        )}
      </main>
      {done && <SuccessSheet red={done} onClose={() => setDone(null)} />}
    </div>
  )
}
