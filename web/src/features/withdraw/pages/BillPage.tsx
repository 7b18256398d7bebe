// The two ledgers as lists, one page shape: usercoinrecords
// (/mine/usercoinrecords, the coin bill, GET mine/zhangdan: amounts in
// coins) and userincomerecord (/mine/userincomerecord, income entries, GET
// mine/iIncomes: amounts in yuan). Type chips and a month filter; both are
// kept in the query string (?type=&month=) so back and reload keep them.
// The income list starts with what can be withdrawn and what is pending.
import { Link, useSearchParams } from 'react-router'
import { useQueryClient } from '@tanstack/react-query'
import { t } from '@/i18n'
import { yuan } from '@/lib/wallet'
import { NavBar } from '@/components/NavBar'
import { PullRefresh } from '@/components/PullRefresh'
import { StateView } from '@/components/StateView'
import { useUserStore } from '@/stores/user'
import { useBill, useIncomes } from '@/features/withdraw/api/records'
import { MonthPicker, TypeChips, billTitle, typeLabel } from '@/features/withdraw/components/Filters'
import { IncomeSummaryCard } from '@/features/withdraw/components/IncomeSummary'
import { RecordList } from '@/features/withdraw/components/RecordList'
import { withdrawKeys } from '@/features/withdraw/keys'
import { recentMonths, shortTime, signed, validMonth } from '@/features/withdraw/format'
import { COIN_BILL_TYPES, INCOME_TYPES, type BillEntry } from '@/features/withdraw/types'
import styles from '@/features/withdraw/components/ui.module.css'

export type LedgerKind = 'coins' | 'income'

const KIND = {
  coins: { title: 'route.usercoinrecords.title', empty: 'rec.emptyBill', types: COIN_BILL_TYPES },
  income: { title: 'route.userincomerecord.title', empty: 'rec.emptyIncome', types: INCOME_TYPES },
} as const

// money shows an amount of the ledger's unit: coins as they are, income
// (cents) as yuan.
export function money(kind: LedgerKind, n: number): string {
  return kind === 'coins' ? String(n) : yuan(n)
}

function Line({ e, kind }: { e: BillEntry; kind: LedgerKind }) {
  return (
    <li className={styles.record} data-testid="rec-entry" data-type={e.type}>
      <div className={styles.recordMain}>
        <p className={styles.recordTitle}>{billTitle(e.type, e.title)}</p>
        <p className={styles.recordSub}>
          {typeLabel(e.type)} · {shortTime(e.createdAt)}
        </p>
      </div>
      <div className={styles.recordSide}>
        <p className={`${styles.amount} ${e.amount > 0 ? styles.plus : ''}`} data-testid="rec-amount">
          {signed(e.amount, money(kind, e.amount))}
        </p>
        <p className={styles.recordSub}>{t('rec.balance', { v: money(kind, e.balance) })}</p>
      </div>
    </li>
  )
}

export function LedgerPage({ kind }: { kind: LedgerKind }) {
  const token = useUserStore((s) => s.token)
  const isGuest = useUserStore((s) => s.user?.isGuest)
  const queryClient = useQueryClient()
  const [params, setParams] = useSearchParams()
  const cfg = KIND[kind]
  const rawType = params.get('type') ?? ''
  const type = (cfg.types as readonly string[]).includes(rawType) ? rawType : ''
  const rawMonth = params.get('month') ?? ''
  const month = validMonth(rawMonth) ? rawMonth : ''
  const bill = useBill(type, month, kind === 'coins' ? token : null)
  const income = useIncomes(type, month, kind === 'income' ? token : null)
  const q = kind === 'coins' ? bill : income

  const set = (k: 'type' | 'month', v: string) => {
    const next = new URLSearchParams(params)
    if (v) next.set(k, v)
    else next.delete(k)
    setParams(next, { replace: true })
  }

  return (
    <div className={styles.page} data-testid="rec-ledger" data-kind={kind}>
      <NavBar
        title={t(cfg.title)}
        back="/mine"
        right={
          kind === 'income' ? (
            <Link to="/mine/withdraw" className={`${styles.sectionLink} prima-hit`} data-testid="rec-withdraw">
              {t('route.withdraw.title')}
            </Link>
          ) : undefined
        }
      />
      <div className={styles.filters}>
        <TypeChips types={cfg.types} value={type} onChange={(v) => set('type', v)} />
        <MonthPicker value={month} onChange={(v) => set('month', v)} months={recentMonths(24)} />
      </div>
      <main className={styles.listWrap}>
        <PullRefresh onRefresh={() => (kind === 'income' ? queryClient.invalidateQueries({ queryKey: withdrawKeys.incomeAll() }) : q.refetch())}>
          <div style={{ minHeight: '60vh' }}>
            {kind === 'income' && (
              <div className={styles.summaryWrap}>
                <IncomeSummaryCard token={token} isGuest={isGuest === true} />
              </div>
            )}
            {token == null ? (
              <StateView kind="empty" title={t('wd.signIn')} />
            ) : (
              <RecordList q={q} empty={t(cfg.empty)} item={(e) => <Line key={e.id} e={e} kind={kind} />} testid="rec-entries" />
            )}
          </div>
        </PullRefresh>
      </main>
    </div>
  )
}
