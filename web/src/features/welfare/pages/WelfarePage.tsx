// userfulitask (/mine/userfulitask, 福利任务): the daily check-in card with
// its 7-day strip, the task list (progress from the server, 去完成 / 领取 /
// 已领取) and the points prizes with a confirm sheet. Guests (device
// accounts) use it too: points stay with the account when it registers.
// A grant refetches the wallet and the user info (moneyMoved).
import { useEffect, useRef, useState } from 'react'
import { Link } from 'react-router'
import { useQueryClient } from '@tanstack/react-query'
import { t } from '@/i18n'
import { ApiError } from '@/lib/api'
import { onMoneyMoved } from '@/lib/purchase'
import { relativeTime } from '@/lib/time'
import { toast } from '@/lib/toast'
import { newIdempotencyKey } from '@/lib/wallet'
import { NavBar } from '@/components/NavBar'
import { StateView } from '@/components/StateView'
import { useUserStore } from '@/stores/user'
import { useCheckIn, useCheckin, useClaim, useExchange, usePrizes, useRecords, useTasks, welfareKeys } from '@/features/welfare/api'
import {
  prizeBlock,
  progressPercent,
  signed,
  strip,
  taskAction,
  type CheckinState,
  type DayReward,
  type PointEntry,
  type Prize,
  type PrizeReward,
  type Task,
} from '@/features/welfare/model'
import styles from '@/features/welfare/welfare.module.css'

function rewardText(r: DayReward): string {
  const parts: string[] = []
  if (r.points) parts.push(t('wf.pts', { n: r.points }))
  if (r.coins) parts.push(t('wf.coins', { n: r.coins }))
  return parts.join(' + ')
}

function prizeText(r: PrizeReward): string {
  const parts: string[] = []
  if (r.coins) parts.push(t('wf.coins', { n: r.coins }))
  if (r.vipDays) parts.push(t(r.vipLevel === 2 ? 'wf.svip' : 'wf.vip', { n: r.vipDays }))
  if (r.coupons) parts.push(t('wf.coupons', { n: r.coupons }))
  return parts.join(' + ')
}

function fail(err: unknown) {
  toast.fail(err instanceof ApiError ? err.tip : String(err))
}

export default function WelfarePage() {
  const token = useUserStore((s) => s.token)
  const qc = useQueryClient()
  const checkin = useCheckin(token)
  const tasks = useTasks(token)
  const prizes = usePrizes(token)
  const records = useRecords(token)
  // Points and progress move with the wallet (another tab, an operator).
  useEffect(() => onMoneyMoved(() => void qc.invalidateQueries({ queryKey: welfareKeys.all })), [qc])

  let body
  if (token == null) body = <StateView kind="empty" title={t('wf.signIn')} />
  else if (checkin.isPending) body = <StateView kind="loading" />
  else if (checkin.isError) body = <StateView kind="error" error={checkin.error} onRetry={() => void checkin.refetch()} />
  else
    body = (
      <>
        <CheckinCard st={checkin.data} points={prizes.data?.points ?? checkin.data.points} />
        <section className={styles.section} aria-labelledby="wf-tasks">
          <h2 id="wf-tasks" className={styles.sectionTitle}>
            {t('wf.tasks')}
          </h2>
          {tasks.isPending ? (
            <StateView kind="loading" compact />
          ) : tasks.isError ? (
            <StateView kind="error" compact error={tasks.error} onRetry={() => void tasks.refetch()} />
          ) : tasks.data.length === 0 ? (
            <StateView kind="empty" compact title={t('wf.noTasks')} />
          ) : (
            <ul className={styles.list} data-testid="wf-tasks">
              {tasks.data.map((task) => (
                <TaskRow key={task.id} task={task} />
              ))}
            </ul>
          )}
        </section>
        <section className={styles.section} aria-labelledby="wf-prizes">
          <h2 id="wf-prizes" className={styles.sectionTitle}>
            {t('wf.prizes')}
          </h2>
          {prizes.isPending ? (
            <StateView kind="loading" compact />
          ) : prizes.isError ? (
            <StateView kind="error" compact error={prizes.error} onRetry={() => void prizes.refetch()} />
          ) : prizes.data.list.length === 0 ? (
            <StateView kind="empty" compact title={t('wf.noPrizes')} />
          ) : (
            <PrizeGrid list={prizes.data.list} points={prizes.data.points} />
          )}
        </section>
        <section className={styles.section} aria-labelledby="wf-records">
          <h2 id="wf-records" className={styles.sectionTitle}>
            {t('wf.records')}
          </h2>
          {records.isPending ? (
            <StateView kind="loading" compact />
          ) : records.isError ? (
            <StateView kind="error" compact error={records.error} onRetry={() => void records.refetch()} />
          ) : records.data.list.length === 0 ? (
            <StateView kind="empty" compact title={t('wf.noRecords')} />
          ) : (
            <ul className={styles.list} data-testid="wf-records">
              {records.data.list.map((e) => (
                <RecordRow key={e.id} e={e} />
              ))}
            </ul>
          )}
        </section>
      </>
    )

  return (
    <div className={styles.page} data-testid="wf-page">
      <NavBar title={t('route.userfulitask.title')} back="/mine" />
      <main className={styles.body}>{body}</main>
    </div>
  )
}

function CheckinCard({ st, points }: { st: CheckinState; points: number }) {
  const checkIn = useCheckIn()
  const cells = strip(st)
  const go = () =>
    checkIn.mutate(undefined, {
      // The tasks the check-in completed were paid with it: say so, so
      // nobody looks for a second tap.
      onSuccess: (r) =>
        toast.success(
          r.tasks?.length
            ? t('wf.checkedToastTasks', { r: rewardText(r.reward), tasks: r.tasks.map((x) => t('wf.taskPaid', { title: x.title, r: rewardText(x.reward) })).join(t('wf.listSep')) })
            : t('wf.checkedToast', { r: rewardText(r.reward) }),
        ),
      onError: fail,
    })
  return (
    <section className={styles.card} data-testid="wf-checkin">
      <div className={styles.cardTop}>
        <div>
          <p className={styles.label}>{t('wf.points')}</p>
          <p className={styles.value} data-testid="wf-points">
            {points}
          </p>
        </div>
        <p className={styles.label} data-testid="wf-streak">
          {t('wf.streak', { n: st.streak })}
        </p>
      </div>
      <ol className={styles.strip}>
        {cells.map((c) => (
          <li
            key={c.day}
            className={`${styles.cell} ${c.done ? styles.cellDone : ''} ${c.today ? styles.cellToday : ''}`}
            data-done={c.done ? '1' : '0'}
          >
            <span>{t('wf.day', { n: c.day })}</span>
            <span className={styles.cellReward}>{c.reward.points ? `+${c.reward.points}` : ''}</span>
            {c.reward.coins ? <span className={styles.cellReward}>{t('wf.coins', { n: c.reward.coins })}</span> : null}
          </li>
        ))}
      </ol>
      <button
        type="button"
        className={`${styles.checkin} prima-hit`}
        disabled={st.checkedToday || checkIn.isPending}
        onClick={go}
        data-testid="wf-checkin-btn"
        data-done={st.checkedToday ? '1' : '0'}
      >
        {st.checkedToday ? t('wf.checkedIn') : t('wf.checkin', { r: rewardText(st.todayReward) })}
      </button>
    </section>
  )
}

function TaskRow({ task }: { task: Task }) {
  const claim = useClaim()
  const action = taskAction(task)
  let button
  switch (action.kind) {
    case 'claim':
      button = (
        <button
          type="button"
          className={`${styles.btn} prima-hit`}
          disabled={claim.isPending}
          onClick={() => claim.mutate(task.id, { onSuccess: () => toast.success(t('wf.claimToast')), onError: fail })}
          data-testid="wf-claim"
        >
          {t('wf.claim')}
        </button>
      )
      break
    case 'claimed':
      button = (
        <span className={`${styles.btn} ${styles.btnDone}`} data-testid="wf-claimed">
          {t('wf.claimed')}
        </span>
      )
      break
    case 'go':
      button = (
        <Link to={action.to} className={`${styles.btn} ${styles.btnGhost} prima-hit`} data-testid="wf-go">
          {t('wf.go')}
        </Link>
      )
      break
    default:
      button = null
  }
  return (
    <li className={styles.task} data-testid={`wf-task-${task.metric}`} data-state={task.state}>
      <div className={styles.taskMain}>
        <p className={styles.taskTitle}>
          {/* The tag is for the eye; a screen reader hears the title, then
              the kind (每日签到，每日任务), not 每日每日签到. */}
          <span className={styles.tag} aria-hidden="true">
            {t(task.kind === 'daily' ? 'wf.daily' : 'wf.once')}
          </span>
          {task.title}
          <span className="prima-sr-only">{t(task.kind === 'daily' ? 'wf.dailyA11y' : 'wf.onceA11y')}</span>
        </p>
        <p className={styles.taskSub}>
          {rewardText(task.reward)} · {Math.min(task.progress, task.target)}/{task.target}
        </p>
        <div className={styles.bar} role="progressbar" aria-valuemin={0} aria-valuemax={task.target} aria-valuenow={Math.min(task.progress, task.target)}>
          <div className={styles.barFill} style={{ width: `${progressPercent(task)}%` }} />
        </div>
      </div>
      {button}
    </li>
  )
}

function PrizeGrid({ list, points }: { list: Prize[]; points: number }) {
  const [picked, setPicked] = useState<Prize | null>(null)
  // One idempotency key per confirm sheet: a retry of the same tap reuses it.
  const key = useRef('')
  const exchange = useExchange()
  const open = (p: Prize) => {
    key.current = newIdempotencyKey('prize')
    setPicked(p)
  }
  const confirm = () => {
    if (!picked) return
    exchange.mutate(
      { id: picked.id, idempotencyKey: key.current },
      {
        onSuccess: () => {
          toast.success(t('wf.exchanged'))
          setPicked(null)
        },
        onError: (e) => {
          fail(e)
          setPicked(null)
        },
      },
    )
  }
  return (
    <>
      <ul className={styles.grid} data-testid="wf-prizes">
        {list.map((p) => {
          const block = prizeBlock(p, points)
          return (
            <li key={p.id} className={styles.prize} data-testid="wf-prize">
              <p className={styles.prizeTitle}>{p.title}</p>
              <p className={styles.prizeSub}>{prizeText(p.reward)}</p>
              <p className={styles.prizeCost}>{t('wf.cost', { n: p.cost })}</p>
              <p className={styles.prizeSub}>
                {[p.stock != null ? t('wf.stock', { n: p.stock }) : '', p.perUserLimit > 0 ? t('wf.limit', { n: p.perUserLimit }) : '']
                  .filter(Boolean)
                  .join(' · ')}
              </p>
              <button
                type="button"
                className={`${styles.btn} prima-hit`}
                disabled={block != null}
                onClick={() => open(p)}
                data-testid="wf-exchange"
              >
                {block === 'stock' ? t('wf.soldOut') : block === 'points' ? t('wf.short') : t('wf.exchange')}
              </button>
            </li>
          )
        })}
      </ul>
      {picked && (
        <div className={styles.backdrop} onClick={() => !exchange.isPending && setPicked(null)} data-testid="wf-sheet">
          <div className={styles.sheet} role="dialog" aria-modal="true" aria-labelledby="wf-sheet-title" onClick={(e) => e.stopPropagation()}>
            <h2 id="wf-sheet-title" className={styles.sheetTitle}>
              {t('wf.confirmTitle')}
            </h2>
            <p className={styles.sheetText}>{t('wf.confirmBody', { cost: picked.cost, title: picked.title })}</p>
            <div className={styles.sheetButtons}>
              <button type="button" className={`${styles.btn} ${styles.btnGhost} prima-hit`} onClick={() => setPicked(null)} disabled={exchange.isPending}>
                {t('wf.cancel')}
              </button>
              <button type="button" className={`${styles.btn} prima-hit`} onClick={confirm} disabled={exchange.isPending} data-testid="wf-confirm">
                {t('wf.confirm')}
              </button>
            </div>
          </div>
        </div>
      )}
    </>
  )
}

function kindText(kind: string): string {
  switch (kind) {
    case 'checkin':
      return t('wf.kind.checkin')
    case 'task':
      return t('wf.kind.task')
    case 'prize':
      return t('wf.kind.prize')
  }
  return t('wf.kind.other')
}

function RecordRow({ e }: { e: PointEntry }) {
  return (
    <li className={styles.task} data-testid="wf-record">
      <div className={styles.taskMain}>
        <p className={styles.taskTitle}>{kindText(e.kind)}</p>
        <p className={styles.taskSub}>{relativeTime(e.createdAt * 1000)}</p>
      </div>
      <span className={e.delta > 0 ? styles.gain : styles.spend}>{signed(e.delta)}</span>
    </li>
  )
}
