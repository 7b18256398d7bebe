// The fixed comment composer at the foot of a post: above the home
// indicator (safe area), a textarea that grows to a few lines, the reply
// target ("回复 @name", cancelable), and one clientID per comment so a
// retried send after a lost answer posts once. Guests and signed-out
// visitors are told to register instead.
import { useEffect, useRef, useState } from 'react'
import { Link } from 'react-router'
import { t } from '@/i18n'
import { ApiError } from '@/lib/api'
import { toast } from '@/lib/toast'
import { addComment, useCommentsChanged } from '@/features/community/detail/api/post'
import { newClientID } from '@/features/community/detail/access'
import type { ReplyTarget } from '@/features/community/detail/types'
import styles from './detail.module.css'

export const COMMENT_MAX = 500

interface Props {
  postID: number
  token: string | null
  allowed: boolean // a registered user
  target: ReplyTarget | null
  onClearTarget: () => void
  focusKey: number // bumps when a reply is chosen: focus the field
}

export function Composer({ postID, token, allowed, target, onClearTarget, focusKey }: Props) {
  const [text, setText] = useState('')
  const [sending, setSending] = useState(false)
  const clientID = useRef(newClientID())
  const field = useRef<HTMLTextAreaElement>(null)
  const changed = useCommentsChanged(postID, token)

  useEffect(() => {
    if (focusKey > 0) field.current?.focus()
  }, [focusKey])

  // Grow with the text up to five lines, then scroll inside.
  useEffect(() => {
    const el = field.current
    if (!el) return
    el.style.height = 'auto'
    el.style.height = `${Math.min(el.scrollHeight, 112)}px`
  }, [text])

  if (!allowed) {
    return (
      <div className={styles.composer} data-testid="post-guest-bar">
        <p className={styles.guestText}>{token ? t('post.guestTitle') : t('post.signInToComment')}</p>
        <Link to={token ? '/mine/register' : '/mine/login'} className={styles.guestBtn} data-testid="post-guest-register">
          {t('post.guestAction')}
        </Link>
      </div>
    )
  }

  const length = [...text.trim()].length
  const tooLong = length > COMMENT_MAX
  const send = () => {
    if (length === 0 || tooLong || sending) return
    setSending(true)
    addComment({ postID, parentID: target?.parentId ?? 0, replyToUID: target?.replyToUid ?? 0, text, clientID: clientID.current })
      .then(() => {
        clientID.current = newClientID()
        setText('')
        onClearTarget()
        field.current?.blur()
        toast.success(t('post.commented'))
        changed(1)
      })
      .catch((err: unknown) => {
        // A refusal is final (the API client toasted its tip): the next
        // send is a new comment. A lost answer keeps the clientID.
        if (err instanceof ApiError && err.status >= 400 && err.status < 500) clientID.current = newClientID()
      })
      .finally(() => setSending(false))
  }

  return (
    <form
      className={styles.composer}
      onSubmit={(e) => {
        e.preventDefault()
        send()
      }}
      data-testid="post-composer"
    >
      <div className={styles.fieldWrap}>
        {target && (
          <p className={styles.target} data-testid="composer-target">
            <span>{t('post.replyTo', { name: target.name })}</span>
            <button type="button" className={styles.targetX} onClick={onClearTarget} aria-label={t('common.cancel')}>
              ×
            </button>
          </p>
        )}
        <textarea
          ref={field}
          className={styles.field}
          rows={1}
          value={text}
          maxLength={COMMENT_MAX * 2}
          placeholder={target ? t('post.replyTo', { name: target.name }) : t('post.commentPlaceholder')}
          aria-label={t('post.commentPlaceholder')}
          onChange={(e) => setText(e.target.value)}
          enterKeyHint="send"
          data-testid="composer-field"
        />
        {tooLong && <p className={styles.tooLong}>{t('post.commentTooLong', { n: COMMENT_MAX })}</p>}
      </div>
      <button type="submit" className={styles.send} disabled={length === 0 || tooLong || sending} data-testid="composer-send">
        {sending ? t('post.sending') : t('post.send')}
      </button>
    </form>
  )
}
