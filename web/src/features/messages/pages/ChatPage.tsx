// message (/message/:uid): a private conversation. Bubbles oldest to newest
// with time lines between bursts; older history loads upward (scrolling to
// the top, or the button) without moving what is on screen; text and
// pictures (uploaded with progress, then sent by asset id) go out at once
// as pending bubbles that turn into the server's message or into a failed
// one with retry (the same clientId, so a retry never makes two). The
// peer's messages are marked read while the page is visible, and my last
// message shows whether they read it. Block and report sit in the menu.
// New messages arrive by realtime events; without a socket the first page
// polls every 5 s (lib/inbox.ts).
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ChangeEvent } from 'react'
import { useParams } from 'react-router'
import { useQueryClient, type InfiniteData } from '@tanstack/react-query'
import { routeTitle, t } from '@/i18n'
import { ApiError } from '@/lib/api'
import { confirm, loadDialog } from '@/lib/dialog'
import { inboxKeys, useLive } from '@/lib/inbox'
import { toast } from '@/lib/toast'
import { uploadFile } from '@/lib/upload'
import { NavBar } from '@/components/NavBar'
import { StateView } from '@/components/StateView'
import { Spinner } from '@/components/Spinner'
import { useUserStore } from '@/stores/user'
import { useHistory } from '@/features/messages/api/history'
import { readMessages, reportUser, sendMessage, setBlocked } from '@/features/messages/api/send'
import { charCount, chatTime, checkText, MAX_TEXT, newClientId, newestFromPeer, timeline, unreadFromPeer, type Pending } from '@/features/messages/chat'
import { messageKeys } from '@/features/messages/keys'
import type { History, Message } from '@/features/messages/types'
import { Face, RegisterGate } from '@/features/messages/components/Parts'
import styles from '@/features/messages/components/ui.module.css'

type Pages = InfiniteData<History, number>

// NEAR_BOTTOM_PX: a reader this close to the end follows new messages.
const NEAR_BOTTOM_PX = 120

const REASONS = ['msg.reportSpam', 'msg.reportHarass', 'msg.reportFraud', 'msg.reportPorn', 'msg.reportOther'] as const

function Bubble({ m, receipt }: { m: Message; receipt: boolean }) {
  return (
    <div className={`${styles.line} ${m.fromMe ? styles.mine : ''}`} data-testid="chat-msg" data-id={m.id} data-from-me={m.fromMe}>
      <div className={styles.stack}>
        {m.kind === 'image' && m.image ? (
          <a href={m.image.url} target="_blank" rel="noreferrer">
            <img
              className={styles.picture}
              src={m.image.thumb || m.image.url}
              alt={t('msg.picture')}
              style={m.image.width > 0 && m.image.height > 0 ? { aspectRatio: `${m.image.width} / ${m.image.height}` } : undefined}
              data-testid="chat-picture"
            />
          </a>
        ) : m.kind === 'image' ? (
          <p className={styles.bubble}>{t('msg.picture')}</p>
        ) : (
          <p className={styles.bubble} data-testid="chat-text">
            {m.text}
          </p>
        )}
        {receipt && (
          <span className={styles.status} data-testid="chat-receipt" data-read={m.read}>
            {t(m.read ? 'msg.read' : 'msg.unread')}
          </span>
        )}
      </div>
    </div>
  )
}

function PendingBubble({ p, onRetry }: { p: Pending; onRetry: () => void }) {
  return (
    <div className={`${styles.line} ${styles.mine}`} data-testid="chat-pending" data-state={p.state}>
      <div className={styles.stack}>
        {p.kind === 'image' ? (
          <img className={styles.picture} src={p.localUrl} alt={t('msg.picture')} style={{ opacity: p.state === 'failed' ? 0.5 : 0.75 }} />
        ) : (
          <p className={styles.bubble} style={{ opacity: p.state === 'failed' ? 0.6 : 0.75 }}>
            {p.text}
          </p>
        )}
        {p.state === 'failed' ? (
          <button type="button" className={styles.failed} onClick={onRetry} data-testid="chat-retry">
            {p.error ? `${p.error} · ${t('msg.retry')}` : t('msg.failed')}
          </button>
        ) : (
          <span className={styles.status}>
            <Spinner size={11} />
            {p.state === 'uploading' ? t('msg.uploading', { p: Math.round((p.progress ?? 0) * 100) }) : t('msg.sending')}
          </span>
        )}
      </div>
    </div>
  )
}

const PictureGlyph = () => (
  <svg width="26" height="26" viewBox="0 0 24 24" aria-hidden="true">
    <rect x="3" y="5" width="18" height="14" rx="3" fill="none" stroke="currentColor" strokeWidth="1.8" />
    <circle cx="9" cy="10" r="1.8" fill="currentColor" />
    <path d="m4.5 17 5-5 3.5 3.5 2.5-2.5 4 4" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round" />
  </svg>
)

const MoreGlyph = () => (
  <svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true">
    <circle cx="5" cy="12" r="2" fill="currentColor" />
    <circle cx="12" cy="12" r="2" fill="currentColor" />
    <circle cx="19" cy="12" r="2" fill="currentColor" />
  </svg>
)

function errorTip(e: unknown): string {
  return e instanceof ApiError ? e.tip : t('msg.failed')
}

export default function ChatPage() {
  const { uid: rawUid } = useParams()
  const uid = /^\d{1,18}$/.test(rawUid ?? '') ? Number(rawUid) : 0
  const token = useUserStore((s) => s.token)
  const isGuest = useUserStore((s) => s.user?.isGuest ?? false)
  const qc = useQueryClient()
  const q = useHistory(uid, isGuest ? null : token)
  const live = useLive()
  const pages = q.data?.pages
  const first = pages?.[0]
  const [pending, setPending] = useState<Pending[]>([])
  const [text, setText] = useState('')
  const files = useRef(new Map<string, File>())
  const scroller = useRef<HTMLDivElement>(null)
  const topSentinel = useRef<HTMLDivElement>(null)
  const fileInput = useRef<HTMLInputElement>(null)
  const key = messageKeys.history(uid, token)

  const items = timeline(pages, pending)
  const lastMine = [...items].reverse().find((i) => i.type === 'message' && i.message.fromMe)
  const receiptId = lastMine?.type === 'message' ? lastMine.message.id : 0

  // Scrolling: to the end on the first page and when something new
  // arrives while the reader is near the end (or it is mine); an older
  // page keeps the view where it was.
  const anchor = useRef<number | null>(null)
  const lastKey = useRef('')
  const pageCount = pages?.length ?? 0
  useLayoutEffect(() => {
    const el = scroller.current
    if (!el) return
    if (anchor.current != null) {
      el.scrollTop = el.scrollHeight - anchor.current
      anchor.current = null
    }
  }, [pageCount])
  const newest = items.length ? items[items.length - 1] : null
  const newestKey = newest?.key ?? ''
  const newestMine = newest?.type === 'pending' || (newest?.type === 'message' && newest.message.fromMe)
  useLayoutEffect(() => {
    const el = scroller.current
    if (!el || newestKey === lastKey.current) return
    const firstTime = lastKey.current === ''
    lastKey.current = newestKey
    const near = el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM_PX + 200
    if (firstTime || near || newestMine) el.scrollTop = el.scrollHeight
  }, [newestKey, newestMine])

  const loadOlder = useCallback(() => {
    const el = scroller.current
    if (!el || !q.hasNextPage || q.isFetchingNextPage) return
    anchor.current = el.scrollHeight - el.scrollTop
    void q.fetchNextPage()
  }, [q])

  useEffect(() => {
    const el = topSentinel.current
    if (!el || typeof IntersectionObserver === 'undefined') return
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) loadOlder()
    }, { root: scroller.current, rootMargin: '80px 0px 0px 0px' })
    io.observe(el)
    return () => io.disconnect()
  }, [loadOlder, pageCount])

  // Read state: what the peer sent is read while this page is visible.
  const upTo = newestFromPeer(pages)
  const hasUnread = unreadFromPeer(pages)
  const readSent = useRef(0)
  useEffect(() => {
    if (!hasUnread || upTo <= readSent.current) return
    const mark = () => {
      if (document.visibilityState !== 'visible' || upTo <= readSent.current) return
      readSent.current = upTo
      readMessages(uid, upTo)
        .then(() => {
          void qc.invalidateQueries({ queryKey: inboxKeys.all })
          void qc.invalidateQueries({ queryKey: messageKeys.conversations(token) })
        })
        .catch(() => {
          readSent.current = 0
        })
    }
    mark()
    document.addEventListener('visibilitychange', mark)
    return () => document.removeEventListener('visibilitychange', mark)
  }, [hasUnread, upTo, uid, qc, token])

  // Pending messages: the preview URLs of pictures are freed on leaving.
  const pendingRef = useRef(pending)
  pendingRef.current = pending
  useEffect(
    () => () => {
      for (const p of pendingRef.current) if (p.localUrl) URL.revokeObjectURL(p.localUrl)
    },
    [],
  )

  const update = (id: string, patch: Partial<Pending>) => setPending((ps) => ps.map((p) => (p.clientId === id ? { ...p, ...patch } : p)))

  const deliver = async (p: Pending) => {
    const id = p.clientId
    try {
      let assetId = p.assetId
      if (p.kind === 'image' && !assetId) {
        const file = files.current.get(id)
        if (!file) throw new Error('picture gone')
        update(id, { state: 'uploading', progress: 0, error: undefined })
        const asset = await uploadFile<{ id: number }>('/api/app/vid/uploadStatic', file, {
          onProgress: (sent, total) => update(id, { progress: total > 0 ? sent / total : 0 }),
        }).promise
        assetId = asset.id
        update(id, { assetId })
      }
      update(id, { state: 'sending', error: undefined })
      const m = await sendMessage({ uid, kind: p.kind, text: p.kind === 'text' ? p.text : undefined, assetId, clientId: id })
      qc.setQueryData<Pages>(key, (old) => {
        if (!old?.pages.length) return old
        const [head, ...rest] = old.pages
        return { ...old, pages: [{ ...head, list: [m, ...head.list.filter((x) => x.id !== m.id)] }, ...rest] }
      })
      setPending((ps) => ps.filter((x) => x.clientId !== id))
      if (p.localUrl) URL.revokeObjectURL(p.localUrl)
      files.current.delete(id)
      void qc.invalidateQueries({ queryKey: messageKeys.conversations(token) })
    } catch (e) {
      update(id, { state: 'failed', error: errorTip(e) })
      // Blocked meanwhile: the page shows why.
      if (e instanceof ApiError && e.status === 403) void q.refetch()
    }
  }

  const sendText = () => {
    const { text: clean, problem } = checkText(text)
    if (problem) {
      toast.text(t(problem === 'empty' ? 'msg.empty' : 'msg.tooLong'))
      return
    }
    const p: Pending = { clientId: newClientId(), kind: 'text', text: clean, state: 'sending', createdAt: new Date().toISOString() }
    setPending((ps) => [...ps, p])
    setText('')
    void deliver(p)
  }

  const pickPicture = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0]
    e.target.value = ''
    if (!file) return
    if (!file.type.startsWith('image/')) {
      toast.text(t('msg.notImage'))
      return
    }
    const p: Pending = { clientId: newClientId(), kind: 'image', text: '', localUrl: URL.createObjectURL(file), state: 'uploading', progress: 0, createdAt: new Date().toISOString() }
    files.current.set(p.clientId, file)
    setPending((ps) => [...ps, p])
    void deliver(p)
  }

  const openMenu = async () => {
    if (!first) return
    // The dialog loads with the sheet, so blocking asks at once.
    const [{ default: ActionSheet }] = await Promise.all([import('antd-mobile/es/components/action-sheet'), loadDialog()])
    const blocked = first.blocked
    ActionSheet.show({
      cancelText: t('msg.cancel'),
      actions: [
        { key: 'block', text: t(blocked ? 'msg.unblock' : 'msg.block'), danger: !blocked },
        { key: 'report', text: t('msg.report') },
      ],
      closeOnAction: true,
      onAction: async (a) => {
        if (a.key === 'block') {
          if (!blocked && !(await confirm({ content: t('msg.blockConfirm'), cancelText: t('msg.cancel'), confirmText: t('msg.block') }))) return
          await setBlocked(uid, !blocked)
          toast.success(t(blocked ? 'msg.unblockedDone' : 'msg.blockedDone'))
          void q.refetch()
        } else {
          ActionSheet.show({
            extra: t('msg.reportTitle'),
            cancelText: t('msg.cancel'),
            closeOnAction: true,
            actions: REASONS.map((r) => ({ key: r, text: t(r) })),
            onAction: async (r) => {
              await reportUser(uid, t(r.key as (typeof REASONS)[number]))
              toast.success(t('msg.reported'))
            },
          })
        }
      },
    })
  }

  const unblock = async () => {
    await setBlocked(uid, false)
    toast.success(t('msg.unblockedDone'))
    void q.refetch()
  }

  const title = first?.peer.name || routeTitle('message')
  const menu = first ? (
    <button type="button" className={styles.menuBtn} onClick={() => void openMenu()} aria-label={t('msg.more')} data-testid="chat-menu">
      <MoreGlyph />
    </button>
  ) : undefined

  let body
  if (token == null) body = <StateView kind="empty" title={t('msg.signIn')} />
  else if (isGuest) body = <RegisterGate />
  else if (uid <= 0) body = <StateView kind="empty" title={routeTitle('notfound')} />
  else if (q.isPending) body = <StateView kind="loading" />
  else if (q.isError && !q.data) body = <StateView kind="error" error={q.error} onRetry={() => void q.refetch()} />

  const n = charCount(text)
  const canWrite = first != null && !first.blocked && !first.blockedBy
  return (
    <div className={styles.chat} data-testid="chat-page" data-peer={uid}>
      <NavBar title={title} back="/mine/message" right={menu} />
      {body ?? (
        <>
          <div className={styles.scroller} ref={scroller} data-testid="chat-scroller">
            <div ref={topSentinel} />
            <div className={styles.older}>
              {q.hasNextPage ? (
                <button type="button" className={styles.olderBtn} onClick={loadOlder} disabled={q.isFetchingNextPage} data-testid="chat-older">
                  {q.isFetchingNextPage ? <Spinner size={14} /> : t('msg.loadOlder')}
                </button>
              ) : items.length > 0 ? (
                <p className={styles.olderNone}>{t('msg.noMore')}</p>
              ) : null}
            </div>
            {items.length === 0 && (
              <div style={{ paddingTop: 40, textAlign: 'center' }}>
                <Face name={first?.peer.name ?? ''} src={first?.peer.portrait} />
                <StateView kind="empty" title={t('msg.start')} compact />
              </div>
            )}
            {items.map((it) =>
              it.type === 'time' ? (
                <p key={it.key} className={styles.sep}>
                  {chatTime(it.at, Date.now(), t('msg.yesterday'))}
                </p>
              ) : it.type === 'message' ? (
                <Bubble key={it.key} m={it.message} receipt={it.message.id === receiptId} />
              ) : (
                <PendingBubble key={it.key} p={it.pending} onRetry={() => void deliver(it.pending)} />
              ),
            )}
          </div>
          {!live && (
            <p className={styles.banner} data-testid="chat-polling">
              {t('msg.polling')}
            </p>
          )}
          {first?.blockedBy ? (
            <p className={styles.banner} data-testid="chat-blocked-by">
              {t('msg.blockedYou')}
            </p>
          ) : first?.blocked ? (
            <p className={styles.banner} data-testid="chat-blocked">
              {t('msg.youBlocked')}
              <button type="button" className={styles.bannerBtn} onClick={() => void unblock()} data-testid="chat-unblock">
                {t('msg.unblock')}
              </button>
            </p>
          ) : null}
          {canWrite && (
            <form
              className={styles.composer}
              onSubmit={(e) => {
                e.preventDefault()
                sendText()
              }}
            >
              <button type="button" className={styles.iconBtn} onClick={() => fileInput.current?.click()} aria-label={t('msg.sendPicture')} data-testid="chat-picture-btn">
                <PictureGlyph />
              </button>
              <input ref={fileInput} type="file" accept="image/*" className={styles.hidden} onChange={pickPicture} data-testid="chat-file" />
              <textarea
                className={styles.input}
                rows={1}
                value={text}
                placeholder={t('msg.placeholder')}
                onChange={(e) => setText(e.target.value)}
                aria-label={t('msg.placeholder')}
                data-testid="chat-input"
              />
              {n > MAX_TEXT - 100 && <span className={`${styles.status} ${n > MAX_TEXT ? styles.over : ''}`}>{`${n}/${MAX_TEXT}`}</span>}
              <button type="submit" className={styles.sendBtn} disabled={n === 0} data-testid="chat-send">
                {t('msg.send')}
              </button>
            </form>
          )}
        </>
      )}
    </div>
  )
}
