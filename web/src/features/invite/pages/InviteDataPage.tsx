// agentdata (/mine/pushdata?type=data|list) and usershareshenqing
// (/mine/usershareshenqing, the invite records): the counts today, this
// week and all time, the coins earned, and the invitees, newest first,
// more as the user scrolls. ?type= picks the tab and survives reloads.
import { Link, useSearchParams } from 'react-router'
import { useQueryClient } from '@tanstack/react-query'
import { t } from '@/i18n'
import { relativeTime } from '@/lib/time'
import { LoadMore } from '@/components/LoadMore'
import { NavBar } from '@/components/NavBar'
import { PullRefresh } from '@/components/PullRefresh'
import { StateView } from '@/components/StateView'
import { useUserStore } from '@/stores/user'
import { inviteKeys, useInviteInfo, useInvitees, type Invitee, type InviteInfo } from '@/features/invite/api'
import styles from '@/features/invite/invite.module.css'

type Tab = 'data' | 'list'

function Stats({ info }: { info: InviteInfo }) {
  return (
    <>
      <section className={`${styles.card} ${styles.stats}`} data-testid="invite-counts">
        <div>
          <p className={styles.statValue}>{info.todayCount}</p>
          <p className={styles.label}>{t('inv.today')}</p>
        </div>
        <div>
          <p className={styles.statValue}>{info.weekCount}</p>
          <p className={styles.label}>{t('inv.week')}</p>
        </div>
        <div>
          <p className={styles.statValue} data-testid="invite-total">
            {info.inviteCount}
          </p>
          <p className={styles.label}>{t('inv.total')}</p>
        </div>
      </section>
      <section className={`${styles.card} ${styles.stats}`} style={{ gridTemplateColumns: 'repeat(2, 1fr)' }}>
        <div>
          <p className={styles.statValue}>{info.registeredCount}</p>
          <p className={styles.label}>{t('inv.registered')}</p>
        </div>
        <div>
          <p className={styles.statValue} data-testid="invite-coins">
            {info.rewardedCoins}
          </p>
          <p className={styles.label}>{t('inv.coins')}</p>
        </div>
      </section>
    </>
  )
}

function Row({ v }: { v: Invitee }) {
  const state = v.rewardState === 'rewarded' ? t('inv.state.rewarded', { coins: v.rewardCoins }) : t(`inv.state.${v.rewardState}` as 'inv.state.pending')
  return (
    <li className={styles.row} data-testid="invitee" data-uid={v.uid} data-state={v.rewardState}>
      {v.portrait ? <img className={styles.avatar} src={v.portrait} alt="" /> : <span className={styles.avatar} />}
      <div className={styles.rowMain}>
        <p className={styles.name}>{v.name || `#${v.uid}`}</p>
        <p className={styles.rowSub}>{t('inv.boundAt', { time: relativeTime(v.boundAt) })}</p>
      </div>
      <span className={`${styles.badge} ${v.rewardState === 'rewarded' ? styles.badgeOn : ''}`}>{state}</span>
    </li>
  )
}

function Invitees({ token }: { token: string }) {
  const q = useInvitees(token)
  if (q.isPending) return <StateView kind="loading" />
  if (q.isError && !q.data) return <StateView kind="error" error={q.error} onRetry={() => void q.refetch()} />
  const items = q.data?.pages.flatMap((p) => p.list) ?? []
  if (items.length === 0)
    return (
      <>
        <StateView kind="empty" title={t('inv.empty')} />
        <div className={styles.actions}>
          <Link to="/mine/shareyaoqing" className={`${styles.primary} ${styles.center}`} style={{ justifyContent: 'center' }} data-testid="invite-go-share">
            {t('inv.goShare')}
          </Link>
        </div>
      </>
    )
  return (
    <>
      <ul className={styles.list} data-testid="invitees">
        {items.map((v) => (
          <Row key={v.uid} v={v} />
        ))}
      </ul>
      <LoadMore hasMore={q.hasNextPage} loading={q.isFetchingNextPage} error={q.isFetchNextPageError} onLoad={() => void q.fetchNextPage()} />
    </>
  )
}

export function InviteData({ route, defaultTab }: { route: 'agentdata' | 'usershareshenqing'; defaultTab: Tab }) {
  const token = useUserStore((s) => s.token)
  const [params, setParams] = useSearchParams()
  const raw = params.get('type')
  const tab: Tab = raw === 'data' || raw === 'list' ? raw : defaultTab
  const info = useInviteInfo(token)
  const queryClient = useQueryClient()
  const pick = (next: Tab) => {
    const p = new URLSearchParams(params)
    p.set('type', next)
    setParams(p, { replace: true })
  }
  let body
  if (token == null) body = <StateView kind="empty" title={t('inv.signIn')} />
  else if (tab === 'list') body = <Invitees token={token} />
  else if (info.isPending) body = <StateView kind="loading" />
  else if (info.isError) body = <StateView kind="error" error={info.error} onRetry={() => void info.refetch()} />
  else body = <Stats info={info.data} />
  return (
    <div className={styles.page} data-testid={route}>
      <NavBar title={t(route === 'agentdata' ? 'route.agentdata.title' : 'inv.tabList')} back="/mine" />
      <div className={styles.tabs} role="tablist">
        {(['data', 'list'] as const).map((k) => (
          <button
            key={k}
            type="button"
            role="tab"
            aria-selected={tab === k}
            className={`${styles.tab} ${tab === k ? styles.tabOn : ''}`}
            onClick={() => pick(k)}
            data-testid={`invite-tab-${k}`}
          >
            {t(k === 'data' ? 'inv.tabData' : 'inv.tabList')}
          </button>
        ))}
      </div>
      <main className={styles.body} style={{ paddingTop: 0 }}>
        <PullRefresh onRefresh={() => queryClient.invalidateQueries({ queryKey: inviteKeys.all })}>
          <div style={{ minHeight: '60vh' }}>{body}</div>
        </PullRefresh>
      </main>
    </div>
  )
}

export default function InviteDataPage() {
  return <InviteData route="agentdata" defaultTab="data" />
}
