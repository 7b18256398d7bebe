// messagecenter (/mine/message): three lists under segmented tabs with
// their unread counts: private messages (conversations, each leading to
// /message/{uid}), interaction notices (follows, likes: who did it) and
// system notices. Opening a notice tab marks its notices read once they
// are on screen; the dots of that visit stay until the next one.
import { useEffect, useRef } from 'react'
import { Link, useSearchParams } from 'react-router'
import { useQueryClient } from '@tanstack/react-query'
import { routeTitle, t, type MessageKey } from '@/i18n'
import { badgeText, inboxKeys, useUnread } from '@/lib/inbox'
import { NavBar } from '@/components/NavBar'
import { PullRefresh } from '@/components/PullRefresh'
import { StateView } from '@/components/StateView'
import { useUserStore } from '@/stores/user'
import { useConversations } from '@/features/messages/api/conversations'
import { readNotices, useNotices } from '@/features/messages/api/notices'
import { chatTime } from '@/features/messages/chat'
import type { NoticeCategory } from '@/features/messages/keys'
import type { Conversation, Notice } from '@/features/messages/types'
import { noticeHref } from '@/features/messages/links'
import { Face, PagedList, RegisterGate } from '@/features/messages/components/Parts'
import styles from '@/features/messages/components/ui.module.css'

type Tab = 'chats' | NoticeCategory

const TABS: { id: Tab; label: MessageKey }[] = [
  { id: 'chats', label: 'msg.tab.chats' },
  { id: 'interaction', label: 'msg.tab.interaction' },
  { id: 'system', label: 'msg.tab.system' },
]

function when(iso: string): string {
  return chatTime(iso, Date.now(), t('msg.yesterday'))
}

function ConversationRow({ c }: { c: Conversation }) {
  const preview = c.lastMessage.kind === 'image' ? t('msg.picture') : c.lastMessage.text
  return (
    <li>
      <Link to={`/message/${c.peer.uid}`} className={`${styles.row} prima-hit`} data-testid="conv-row" data-uid={c.peer.uid} data-unread={c.unread}>
        <Face name={c.peer.name} src={c.peer.portrait} />
        <div className={styles.rowMain}>
          <div className={styles.rowTop}>
            <p className={styles.rowName}>{c.peer.name}</p>
            <span className={styles.rowTime}>{when(c.lastMessage.at)}</span>
          </div>
          <p className={styles.rowText} data-testid="conv-preview">
            {c.lastMessage.fromMe ? t('msg.you') : ''}
            {preview}
          </p>
        </div>
        {c.unread > 0 && (
          <span className={styles.count} data-testid="conv-unread" title={t('msg.unreadCount', { n: c.unread })}>
            {badgeText(c.unread)}
          </span>
        )}
      </Link>
    </li>
  )
}

function NoticeRow({ n }: { n: Notice }) {
  return (
    <li className={styles.row} data-testid="notice-row" data-kind={n.kind} data-read={n.read}>
      {n.actor ? (
        <Link to={`/usercenter/${n.actor.uid}`} className="prima-hit" aria-label={n.actor.name}>
          <Face name={n.actor.name} src={n.actor.portrait} />
        </Link>
      ) : (
        <span className={`${styles.avatar} ${styles.systemIcon}`} aria-hidden="true">
          <BellGlyph />
        </span>
      )}
      <NoticeMain n={n} />
      {!n.read && <span className={styles.dot} role="img" aria-label={t('msg.unread')} />}
    </li>
  )
}

// NoticeMain is the notice's text; a notice about a post links to it.
function NoticeMain({ n }: { n: Notice }) {
  const inner = (
    <>
      <div className={styles.rowTop}>
        <p className={styles.rowName}>{n.actor ? `${n.actor.name} ${n.title}` : n.title}</p>
        <span className={styles.rowTime}>{when(n.createdAt)}</span>
      </div>
      {n.body && <p className={styles.rowBody}>{n.body}</p>}
    </>
  )
  const href = noticeHref(n)
  if (href == null) return <div className={styles.rowMain}>{inner}</div>
  return (
    <Link to={href} className={`${styles.rowMain} ${styles.rowLink}`} data-testid="notice-link">
      {inner}
    </Link>
  )
}

const BellGlyph = () => (
  <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true">
    <path
      d="M12 3a6 6 0 0 0-6 6v3.6L4.5 15.5A1 1 0 0 0 5.4 17h13.2a1 1 0 0 0 .9-1.5L18 12.6V9a6 6 0 0 0-6-6Zm-2.2 15.5a2.3 2.3 0 0 0 4.4 0Z"
      fill="currentColor"
    />
  </svg>
)

function Notices({ category, token }: { category: NoticeCategory; token: string }) {
  const qc = useQueryClient()
  const q = useNotices(category, token)
  const unread = q.data?.pages.some((p) => p.list.some((n) => !n.read)) ?? false
  // Mark read once the list is on screen, once per visit of the tab.
  const marked = useRef(false)
  useEffect(() => {
    if (!unread || marked.current) return
    marked.current = true
    readNotices(category)
      .then(() => qc.invalidateQueries({ queryKey: inboxKeys.all }))
      .catch(() => {
        marked.current = false
      })
  }, [unread, category, qc])
  return (
    <PullRefresh onRefresh={() => q.refetch()}>
      <div style={{ minHeight: '60vh' }}>
        <PagedList
          q={q}
          empty={t(category === 'system' ? 'msg.emptySystem' : 'msg.emptyInteraction')}
          item={(n) => <NoticeRow key={n.id} n={n} />}
          testid={`notices-${category}`}
        />
      </div>
    </PullRefresh>
  )
}

function Conversations({ token }: { token: string }) {
  const q = useConversations(token)
  return (
    <PullRefresh onRefresh={() => q.refetch()}>
      <div style={{ minHeight: '60vh' }}>
        <PagedList q={q} empty={t('msg.emptyChats')} item={(c) => <ConversationRow key={c.peer.uid} c={c} />} testid="conversations" />
      </div>
    </PullRefresh>
  )
}

export default function MessageCenterPage() {
  const token = useUserStore((s) => s.token)
  const isGuest = useUserStore((s) => s.user?.isGuest ?? false)
  const [params, setParams] = useSearchParams()
  const raw = params.get('tab')
  const tab: Tab = raw === 'interaction' || raw === 'system' ? raw : 'chats'
  const unread = useUnread(token).data
  const counts: Record<Tab, number> = {
    chats: unread?.messages ?? 0,
    interaction: unread?.notices.interaction ?? 0,
    system: unread?.notices.system ?? 0,
  }

  let body
  if (token == null) body = <StateView kind="empty" title={t('msg.signIn')} />
  else if (tab === 'chats') body = isGuest ? <RegisterGate /> : <Conversations token={token} />
  else body = <Notices key={tab} category={tab} token={token} />

  return (
    <div className={styles.page} data-testid="message-center">
      <NavBar title={routeTitle('messagecenter')} back="/mine" />
      <div className={styles.tabs} role="tablist">
        {TABS.map(({ id, label }) => (
          <button
            key={id}
            type="button"
            role="tab"
            aria-selected={tab === id}
            className={`${styles.tab} ${tab === id ? styles.tabActive : ''}`}
            onClick={() => setParams(id === 'chats' ? {} : { tab: id }, { replace: true })}
            data-testid={`msg-tab-${id}`}
          >
            {t(label)}
            {counts[id] > 0 && (
              <span className={styles.count} data-testid={`msg-tab-count-${id}`}>
                {badgeText(counts[id])}
              </span>
            )}
          </button>
        ))}
      </div>
      <main className={styles.listWrap}>{body}</main>
    </div>
  )
}
