// address (/mine/address?type=1|2): the user's payout accounts of one kind
// (1 bank cards, 2 USDT addresses; the tab is kept in ?type=), each with a
// delete behind a confirmation, and the button to add one (at most 5).
import { useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import { t } from '@/i18n'
import { ApiError } from '@/lib/api'
import { toast } from '@/lib/toast'
import { NavBar } from '@/components/NavBar'
import { PullRefresh } from '@/components/PullRefresh'
import { Spinner } from '@/components/Spinner'
import { StateView } from '@/components/StateView'
import { useUserStore } from '@/stores/user'
import { useAccounts, useDeleteAccount } from '@/features/withdraw/api/payout-accounts'
import { AccountLine } from '@/features/withdraw/components/AccountLine'
import { GuestGate, needsRegistration } from '@/features/withdraw/components/GuestGate'
import { Sheet } from '@/features/withdraw/components/Sheet'
import type { ActType, PayoutAccount } from '@/features/withdraw/types'
import styles from '@/features/withdraw/components/ui.module.css'

export const MAX_ACCOUNTS = 5

export function actTypeOf(param: string | null): ActType {
  return param === '2' ? 2 : 1
}

export default function AddressPage() {
  const token = useUserStore((s) => s.token)
  const isGuest = useUserStore((s) => s.user?.isGuest)
  const [params, setParams] = useSearchParams()
  const actType = actTypeOf(params.get('type'))
  const q = useAccounts(actType, isGuest ? null : token)
  const del = useDeleteAccount()
  const [victim, setVictim] = useState<PayoutAccount | null>(null)
  const [delError, setDelError] = useState<string | null>(null)

  const addPath = actType === 1 ? '/mine/add-bank-card' : '/mine/add-usdt'
  const full = (q.data?.length ?? 0) >= MAX_ACCOUNTS

  const confirmDelete = () => {
    if (!victim) return
    setDelError(null)
    del.mutate(victim.id, {
      onSuccess: () => {
        setVictim(null)
        toast.success(t('wd.deleted'))
      },
      onError: (err) => setDelError(err instanceof ApiError ? err.tip : t('net.failed')),
    })
  }

  let list
  if (q.isPending) list = <StateView kind="loading" />
  else if (q.isError) list = <StateView kind="error" error={q.error} onRetry={() => void q.refetch()} />
  else if (q.data.length === 0) list = <StateView kind="empty" title={actType === 1 ? t('wd.emptyBank') : t('wd.emptyUsdt')} />
  else
    list = (
      <div className={styles.group}>
        <ul className={styles.accounts} data-testid="addr-list">
          {q.data.map((a) => (
            <li key={a.id} className={styles.account} data-testid="addr-item">
              <AccountLine account={a} />
              <button
                type="button"
                className={styles.danger}
                onClick={() => {
                  setDelError(null)
                  setVictim(a)
                }}
                aria-label={`${t('wd.delete')} ${a.actType === 1 ? a.number : a.address}`}
                data-testid="addr-delete"
              >
                {t('wd.delete')}
              </button>
            </li>
          ))}
        </ul>
      </div>
    )

  const body =
    token == null ? (
      <StateView kind="empty" title={t('wd.signIn')} />
    ) : needsRegistration(isGuest, q.error) ? (
      <GuestGate />
    ) : (
      <>
        <div className={styles.segment} role="group" aria-label={t('route.address.title')} style={{ marginBottom: 12 }}>
          {([1, 2] as const).map((k) => (
            <button
              key={k}
              type="button"
              className={actType === k ? styles.segOn : ''}
              aria-pressed={actType === k}
              onClick={() => setParams({ type: String(k) }, { replace: true })}
              data-testid={`addr-type-${k}`}
            >
              {k === 1 ? t('wd.bank') : t('wd.usdt')}
            </button>
          ))}
        </div>
        {list}
        {!q.isPending && !q.isError && (
          <>
            {full ? (
              <p className={styles.note} data-testid="addr-full">
                {t('wd.maxAccounts')}
              </p>
            ) : (
              <Link to={addPath} className={styles.primary} data-testid="addr-add">
                {actType === 1 ? t('wd.addBank') : t('wd.addUsdt')}
              </Link>
            )}
          </>
        )}
      </>
    )

  return (
    <div className={styles.page} data-testid="addr-page" data-type={actType}>
      <NavBar title={t('route.address.title')} back="/mine/withdraw" />
      <main className={styles.body}>
        <PullRefresh onRefresh={() => q.refetch()}>
          <div style={{ minHeight: '60vh' }}>{body}</div>
        </PullRefresh>
      </main>
      {victim && (
        <Sheet title={t('wd.deleteTitle')} onClose={() => setVictim(null)} busy={del.isPending} testid="addr-sheet">
          <div className={styles.group}>
            <div className={styles.account}>
              <AccountLine account={victim} />
            </div>
          </div>
          <p className={styles.sheetText} style={{ marginTop: 12 }}>
            {t('wd.deleteHint')}
          </p>
          {delError && (
            <p className={styles.serverError} role="alert" data-testid="addr-error">
              {delError}
            </p>
          )}
          <div className={styles.sheetButtons}>
            <button type="button" className={styles.cancel} onClick={() => setVictim(null)} disabled={del.isPending}>
              {t('common.cancel')}
            </button>
            <button type="button" className={styles.primary} onClick={confirmDelete} disabled={del.isPending} data-testid="addr-confirm">
              {del.isPending && <Spinner size={16} />}
              {t('wd.delete')}
            </button>
          </div>
        </Sheet>
      )}
    </div>
  )
}
