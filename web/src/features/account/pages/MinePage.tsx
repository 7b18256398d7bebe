// mine (/mine): who you are (guest card with sign-in buttons, or the
// profile), the entries of the account area, the dark-mode switch and
// settings. The user info is refreshed from the server on each visit.
import { useEffect } from 'react'
import { Link } from 'react-router'
import { routeTitle, t, type MessageKey } from '@/i18n'
import { couponTotal, displayName, isSuperVip, isVip, type UserInfo } from '@/lib/user'
import { formatCount } from '@/lib/time'
import { badgeText, unreadTotal, useUnread } from '@/lib/inbox'
import { DarkSwitch } from '@/components/DarkSwitch'
import { FollowCounts } from '@/components/FollowCounts'
import { GearIcon } from '@/components/icons'
import { WalletCard } from '@/components/WalletCard'
import { useCustomerService } from '@/components/CustomerService'
import { useUserStore } from '@/stores/user'
import { useMe } from '@/features/account/api/get-me'
import { Avatar } from '@/features/account/components/Avatar'
import { Cell, CellGroup } from '@/features/account/components/Cells'
import { Glyph, type GlyphName } from '@/features/account/components/MineIcons'
import styles from './MinePage.module.css'

interface Entry {
  route: string
  path: string
  title?: MessageKey // when the entry is not named after its route
  glyph: GlyphName
  color: string
}

const GROUPS: Entry[][] = [
  [
    { route: 'vipcenter', path: '/mine/vipcenter', glyph: 'vip', color: '#d4a24c' },
    { route: 'usercoinchongzhi', path: '/mine/usercoinchongzhi', glyph: 'coin', color: '#ff9500' },
    { route: 'userfulitask', path: '/mine/userfulitask', glyph: 'gift', color: '#ff3b30' },
    { route: 'shareyaoqing', path: '/mine/shareyaoqing', glyph: 'invite', color: '#34c759' },
  ],
  [
    { route: 'userbroswer', path: '/mine/userbroswer', glyph: 'history', color: '#5856d6' },
    { route: 'userfav', path: '/mine/userfav', glyph: 'star', color: '#ffcc00' },
    { route: 'userbuy', path: '/mine/userbuy', glyph: 'bag', color: '#ff2d55' },
    { route: 'userlike', path: '/mine/userlike', glyph: 'heart', color: '#ff6482' },
    { route: 'userguanzhu', path: '/mine/userguanzhu', glyph: 'follow', color: '#30b0c7' },
    { route: 'publishrule', path: '/community/publish/rule', glyph: 'upload', color: '#ff6b00', title: 'pub.entry' },
  ],
  [
    { route: 'messagecenter', path: '/mine/message', glyph: 'message', color: '#007aff' },
    { route: 'accountcode', path: '/mine/accountcode', glyph: 'code', color: '#8e8e93' },
    { route: 'duihuancode', path: '/mine/duihuancode', glyph: 'ticket', color: '#af52de' },
    { route: 'applicationcenter', path: '/mine/applicationcenter', glyph: 'apps', color: '#32ade6' },
    { route: 'help', path: '/mine/help', glyph: 'help', color: '#34c759' },
    { route: 'suggest', path: '/mine/suggest', glyph: 'feedback', color: '#ff9500' },
    // Support and information: official groups, creator application.
    { route: 'groups', path: '/mine/groups', glyph: 'globe', color: '#5ac8fa' },
    { route: 'settled', path: '/mine/settled', glyph: 'upload', color: '#ff2d55' },
  ],
]

// shanghaiDate shows an API time as a calendar date in Asia/Shanghai (UTC+8
// all year), which is how membership dates are sold.
function shanghaiDate(iso: string | null): string {
  const ms = iso ? Date.parse(iso) : NaN
  return Number.isFinite(ms) ? new Date(ms + 8 * 3600_000).toISOString().slice(0, 10) : '—'
}

function GuestCard({ user }: { user: UserInfo | null }) {
  return (
    <section className={styles.card} data-testid="mine-guest-card">
      <Avatar src={user?.portrait} />
      <div className={styles.who}>
        <h2 className={styles.name}>{t('mine.guest')}</h2>
        <p className={styles.meta} data-testid="mine-uid">
          {user ? t('mine.uid', { uid: user.uid }) : t('mine.guestHint')}
        </p>
      </div>
      <div className={styles.actions}>
        <Link to="/mine/login" className={`${styles.btn} ${styles.btnGhost} prima-hit`} data-testid="mine-login">
          {t('mine.login')}
        </Link>
        <Link to="/mine/register" className={`${styles.btn} ${styles.btnFill} prima-hit`} data-testid="mine-register">
          {t('mine.register')}
        </Link>
      </div>
    </section>
  )
}

function VipBadge({ user }: { user: UserInfo }) {
  if (isSuperVip(user)) return <span className={`${styles.badge} ${styles.svip}`} data-testid="mine-vip">{t('vip.super')}</span>
  if (isVip(user)) return <span className={`${styles.badge} ${styles.vip}`} data-testid="mine-vip">{t('vip.vip')}</span>
  return (
    <Link to="/mine/vipcenter" className={`${styles.badge} ${styles.novip}`} data-testid="mine-vip">
      {t('vip.none')}
    </Link>
  )
}

function ProfileCard({ user }: { user: UserInfo }) {
  const token = useUserStore((s) => s.token)
  return (
    <section className={styles.cardWrap} data-testid="mine-profile-card">
      <div className={styles.card}>
        <Avatar src={user.portrait} />
        <div className={styles.who}>
          <h2 className={styles.name}>
            <span className={styles.nameText} data-testid="mine-name">{displayName(user)}</span>
            <VipBadge user={user} />
          </h2>
          <p className={styles.meta} data-testid="mine-uid">
            {t('mine.uid', { uid: user.uid })}
            {user.account && <span data-testid="mine-account"> · {t('mine.account', { account: user.account })}</span>}
          </p>
        </div>
      </div>
      <div className={styles.stats}>
        <div className={styles.stat}>
          <b data-testid="mine-points">{formatCount(user.points)}</b>
          <span>{t('mine.points')}</span>
        </div>
        <div className={styles.stat}>
          <b>{couponTotal(user)}</b>
          <span>{t('mine.coupons')}</span>
        </div>
        <div className={styles.stat}>
          <b>{isSuperVip(user) || isVip(user) ? shanghaiDate(user.vipExpireDate) : '—'}</b>
          <span>{t('mine.vipUntil')}</span>
        </div>
      </div>
      <FollowCounts token={token} />
    </section>
  )
}

export default function MinePage() {
  const token = useUserStore((s) => s.token)
  const stored = useUserStore((s) => s.user)
  const setUser = useUserStore((s) => s.setUser)
  const me = useMe(token)
  const cs = useCustomerService()

  useEffect(() => {
    if (me.data) setUser(me.data)
  }, [me.data, setUser])

  const user = me.data ?? stored
  const signedUp = user != null && !user.isGuest
  // The message entry's badge: unread notices and messages (lib/inbox.ts).
  const unread = badgeText(unreadTotal(useUnread(token).data))
  return (
    <div className={styles.page} data-testid="mine-page">
      <header className={`${styles.header} prima-chrome`}>
        <h1>{t('route.mine.title')}</h1>
        <Link to="/mine/setting" className={`${styles.gear} prima-hit`} aria-label={t('route.setting.title')} data-testid="mine-setting">
          <GearIcon />
        </Link>
      </header>

      <main>
      {user == null && me.isPending ? (
        <section className={styles.card} aria-busy="true">
          <span className={`${styles.skAvatar} prima-skeleton`} />
          <div className={styles.who}>
            <span className={`${styles.skLine} prima-skeleton`} />
            <span className={`${styles.skLine} ${styles.skShort} prima-skeleton`} />
          </div>
        </section>
      ) : signedUp ? (
        <ProfileCard user={user} />
      ) : (
        <GuestCard user={user} />
      )}

      <WalletCard token={token} />

      {GROUPS.map((group, i) => (
        <CellGroup key={i}>
          {group.map((e) => (
            <Cell
              key={e.route}
              icon={<Glyph name={e.glyph} color={e.color} />}
              title={e.title ? t(e.title) : routeTitle(e.route)}
              value={e.route === 'messagecenter' && unread ? <span className={styles.unread} data-testid="mine-message-badge">{unread}</span> : undefined}
              to={e.path}
              testid={`mine-entry-${e.route}`}
            />
          ))}
        </CellGroup>
      ))}

      <CellGroup>
        <Cell icon={<Glyph name="message" color="#34c759" />} title={t('sup.cust')} onClick={cs.open} testid="mine-entry-kefu" />
      </CellGroup>

      <CellGroup>
        <Cell icon={<Glyph name="moon" color="#5e5ce6" />} title={t('setting.dark')} extra={<DarkSwitch />} />
        <Cell icon={<Glyph name="gear" color="#8e8e93" />} title={t('route.setting.title')} to="/mine/setting" testid="mine-entry-setting" />
      </CellGroup>
      </main>
    </div>
  )
}
