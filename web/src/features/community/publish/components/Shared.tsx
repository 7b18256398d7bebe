// What the three publishing forms share: the gate (a visitor signs in, a
// guest registers), the topic and section pickers, the draft line, and the
// publish step (clientID kept across retries, toast, then the post or my
// page when it waits for review).
import { useEffect, useRef, useState, type ReactNode } from 'react'
import { Link, useNavigate } from 'react-router'
import { t } from '@/i18n'
import { ApiError } from '@/lib/api'
import { toast } from '@/lib/toast'
import { NavBar } from '@/components/NavBar'
import { Sheet } from '@/components/Sheet'
import { StateView } from '@/components/StateView'
import { useUserStore } from '@/stores/user'
import type { PostKind } from '@/features/community/types'
import { useCreatePost, useSubModules, useTopicChoices, type PostBody } from '@/features/community/publish/api/publish'
import { clearDraft, newClientID, saveDraft } from '@/features/community/publish/rules'
import styles from './Publish.module.css'

export { styles }

// useAuthor is the signed-in registered user's uid, or why not.
export function useAuthor(): { uid: number; state: 'ok' | 'visitor' | 'guest' } {
  const token = useUserStore((s) => s.token)
  const user = useUserStore((s) => s.user)
  if (token == null) return { uid: 0, state: 'visitor' }
  if (user?.isGuest) return { uid: user.uid, state: 'guest' }
  return { uid: user?.uid ?? 0, state: 'ok' }
}

// Gate shows the sign-in or register prompt instead of a form.
export function Gate({ state }: { state: 'visitor' | 'guest' }) {
  if (state === 'visitor') {
    return (
      <>
        <StateView kind="empty" title={t('pub.signIn')} />
        <Link to="/mine/login" className={styles.primary} data-testid="publish-login">
          {t('pub.login')}
        </Link>
      </>
    )
  }
  return (
    <div data-testid="publish-guest">
      <StateView kind="empty" title={t('pub.guestTitle')} message={t('pub.guestHint')} />
      <Link to="/mine/register" className={styles.primary}>
        {t('pub.guestAction')}
      </Link>
    </div>
  )
}

// PublishPage is a form's frame: the bar with its publish button, the gate.
export function PublishFrame({
  title,
  testid,
  canPublish,
  busy,
  onPublish,
  children,
}: {
  title: string
  testid: string
  canPublish: boolean
  busy: boolean
  onPublish: () => void
  children: ReactNode
}) {
  const me = useAuthor()
  return (
    <div className={styles.page} data-testid={testid}>
      <NavBar
        title={title}
        back="/community/publish/rule"
        right={
          me.state === 'ok' ? (
            <button type="button" className={styles.publishBtn} disabled={!canPublish || busy} onClick={onPublish} data-testid="publish-submit">
              {busy ? t('pub.publishing') : t('pub.publish')}
            </button>
          ) : undefined
        }
      />
      <main className={styles.body}>{me.state === 'ok' ? children : <Gate state={me.state} />}</main>
    </div>
  )
}

// usePublish sends a post. The clientID stays the same until a post is
// made, so a retry after a lost answer is the same post.
export function usePublish(kind: PostKind, uid: number) {
  const create = useCreatePost()
  const navigate = useNavigate()
  const clientID = useRef(newClientID())
  const [error, setError] = useState('')
  const publish = (body: Omit<PostBody, 'clientID' | 'kind'>, afterClear?: () => void) => {
    setError('')
    create.mutate(
      { ...body, kind, clientID: clientID.current },
      {
        onSuccess: (c) => {
          clientID.current = newClientID()
          clearDraft(kind, uid)
          afterClear?.()
          if (c.state === 'published') {
            toast.success(t('pub.published'))
            navigate(`/cdetail/${c.id}`, { replace: true })
          } else {
            toast.text(t('pub.pending'))
            navigate('/myhome', { replace: true, state: { pendingPost: c.id } })
          }
        },
        onError: (e) => {
          // A refusal is final for this body: the next try is a new post.
          if (e instanceof ApiError && e.status >= 400 && e.status < 500 && e.status !== 429 && e.status !== 408) clientID.current = newClientID()
          const tip = e instanceof ApiError ? e.tip : t('net.failed')
          setError(tip)
          toast.fail(tip)
        },
      },
    )
  }
  return { publish, busy: create.isPending, error }
}

// Pickers: the topic and the community section, as iOS list rows that
// open a sheet. A topic list that cannot load hides its row's choices.
export function Pickers({
  topicID,
  moduleID,
  onTopic,
  onModule,
}: {
  topicID: number
  moduleID: number
  onTopic: (id: number) => void
  onModule: (id: number) => void
}) {
  const topics = useTopicChoices()
  const { subs } = useSubModules()
  const [open, setOpen] = useState<'topic' | 'module' | null>(null)
  const topicList = topics.data?.list ?? []
  const topicName = topicList.find((x) => x.id === topicID)?.name
  const subName = subs.find((x) => x.id === moduleID)?.name
  return (
    <>
      <div className={styles.rows}>
        <button type="button" className={styles.row} onClick={() => setOpen('topic')} data-testid="publish-topic">
          <span># {t('pub.topic')}</span>
          <span className={styles.rowValue}>{topicName ?? (topics.isError ? t('pub.topicsFailed') : t('pub.topicNone'))}</span>
        </button>
        {subs.length > 0 && (
          <button type="button" className={styles.row} onClick={() => setOpen('module')} data-testid="publish-module">
            <span>{t('pub.module')}</span>
            <span className={styles.rowValue}>{subName ?? t('pub.moduleNone')}</span>
          </button>
        )}
      </div>
      {open === 'topic' && (
        <Sheet title={t('pub.topic')} onClose={() => setOpen(null)} testid="publish-topic-sheet">
          {topics.isError ? (
            <StateView kind="error" compact error={topics.error} onRetry={() => void topics.refetch()} />
          ) : topics.isPending ? (
            <StateView kind="loading" compact />
          ) : (
            <Choices
              list={[{ id: 0, name: t('pub.topicNone') }, ...topicList.map((x) => ({ id: x.id, name: `# ${x.name}` }))]}
              value={topicID}
              onPick={(id) => {
                onTopic(id)
                setOpen(null)
              }}
            />
          )}
        </Sheet>
      )}
      {open === 'module' && (
        <Sheet title={t('pub.module')} onClose={() => setOpen(null)} testid="publish-module-sheet">
          <Choices
            list={[{ id: 0, name: t('pub.moduleNone') }, ...subs]}
            value={moduleID}
            onPick={(id) => {
              onModule(id)
              setOpen(null)
            }}
          />
        </Sheet>
      )}
    </>
  )
}

function Choices({ list, value, onPick }: { list: { id: number; name: string }[]; value: number; onPick: (id: number) => void }) {
  return (
    <ul className={styles.choices} role="radiogroup">
      {list.map((c) => (
        <li key={c.id}>
          <button type="button" role="radio" aria-checked={c.id === value} className={styles.choice} onClick={() => onPick(c.id)} data-testid="publish-choice">
            {c.name}
          </button>
        </li>
      ))}
    </ul>
  )
}

// DraftBar says the draft is kept and offers to clear the form.
export function DraftBar({ saved, restored, onClear }: { saved: boolean; restored: boolean; onClear: () => void }) {
  return (
    <div className={styles.draftBar}>
      <span data-testid="publish-draft" aria-live="polite">
        {saved ? t('pub.draftSaved') : restored ? t('pub.draftRestored') : ''}
      </span>
      {(saved || restored) && (
        <button type="button" className={styles.linkBtn} onClick={onClear} data-testid="publish-clear">
          {t('pub.clearDraft')}
        </button>
      )}
    </div>
  )
}

// Counter shows n/max, red past max.
export function Counter({ n, max }: { n: number; max: number }) {
  return (
    <p className={`${styles.counter} ${n > max ? styles.over : ''}`} data-testid="publish-counter">
      {t('pub.counter', { n, max })}
    </p>
  )
}

// useDraftSaver keeps value as kind's draft half a second after it last
// changed (an empty form removes it) and says so.
export function useDraftSaver<T>(kind: PostKind, uid: number, value: T, empty: (v: T) => boolean) {
  const [saved, setSaved] = useState(false)
  const json = JSON.stringify(value)
  const first = useRef(true)
  const isEmpty = useRef(empty)
  isEmpty.current = empty
  useEffect(() => {
    if (first.current) {
      first.current = false
      return
    }
    const id = window.setTimeout(() => {
      const v = JSON.parse(json) as T
      if (isEmpty.current(v)) {
        clearDraft(kind, uid)
        setSaved(false)
      } else {
        saveDraft(kind, uid, v as never)
        setSaved(true)
      }
    }, 500)
    return () => window.clearTimeout(id)
  }, [json, kind, uid])
  return { saved, setSaved }
}
