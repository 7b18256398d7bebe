// The comments of a post: the first level oldest first with each one's
// first replies, "展开 N 条回复" fetching the rest, infinite scroll, and
// deleting one's own (or, for the post's author, anyone's under the post).
// Text is plain text: React escapes it, line breaks show through CSS.
import { useState } from 'react'
import { Link } from 'react-router'
import { t } from '@/i18n'
import { relativeTime } from '@/lib/time'
import { toast } from '@/lib/toast'
import { LazyImage } from '@/components/LazyImage'
import { LoadMore } from '@/components/LoadMore'
import { Sheet } from '@/components/Sheet'
import { StateView } from '@/components/StateView'
import { deleteComment, useComments, useCommentsChanged, useReplies } from '@/features/community/detail/api/post'
import type { PostComment, ReplyTarget } from '@/features/community/detail/types'
import styles from './detail.module.css'

interface Props {
  postID: number
  token: string | null
  postMine: boolean
  open: boolean // comments exist only on published posts
  onReply: (target: ReplyTarget) => void
}

export function Comments({ postID, token, postMine, open, onReply }: Props) {
  const q = useComments(postID, token, open)
  if (!open) return <p className={styles.closed}>{t('post.commentsClosed')}</p>
  if (q.isPending) return <StateView kind="loading" compact />
  if (q.isError) return <StateView kind="error" compact error={q.error} onRetry={() => void q.refetch()} />
  const list = q.data.pages.flatMap((p) => p.list)
  if (list.length === 0) {
    return (
      <p className={styles.noComments} data-testid="post-no-comments">
        {t('post.noComments')}
      </p>
    )
  }
  return (
    <>
      <ul className={styles.comments} data-testid="post-comments">
        {list.map((c) => (
          <CommentItem key={c.id} c={c} postID={postID} token={token} postMine={postMine} onReply={onReply} />
        ))}
      </ul>
      <LoadMore
        hasMore={q.hasNextPage}
        loading={q.isFetchingNextPage}
        error={q.isFetchNextPageError}
        onLoad={() => void q.fetchNextPage()}
      />
    </>
  )
}

function CommentItem({
  c,
  postID,
  token,
  postMine,
  onReply,
}: {
  c: PostComment
  postID: number
  token: string | null
  postMine: boolean
  onReply: (target: ReplyTarget) => void
}) {
  const [expanded, setExpanded] = useState(false)
  const replies = useReplies(postID, c.id, token, expanded)
  const shown = expanded && replies.data ? replies.data.pages.flatMap((p) => p.list) : c.replies
  const hidden = c.replyCount - shown.length
  return (
    <li className={styles.comment} data-testid="comment" data-id={c.id}>
      <Line c={c} postMine={postMine} postID={postID} token={token} onReply={() => onReply({ parentId: c.id, replyToUid: c.author.uid, name: c.author.name })} />
      {shown.length > 0 && (
        <ul className={styles.replies} data-testid="replies">
          {shown.map((r) => (
            <li key={r.id} className={styles.reply} data-testid="reply" data-id={r.id}>
              <Line
                c={r}
                postMine={postMine}
                postID={postID}
                token={token}
                small
                onReply={() => onReply({ parentId: c.id, replyToUid: r.author.uid, name: r.author.name })}
              />
            </li>
          ))}
        </ul>
      )}
      {!expanded && hidden > 0 && (
        <button type="button" className={styles.expand} onClick={() => setExpanded(true)} data-testid="expand-replies">
          {t('post.expandReplies', { n: hidden })}
        </button>
      )}
      {expanded && replies.hasNextPage && (
        <button
          type="button"
          className={styles.expand}
          disabled={replies.isFetchingNextPage}
          onClick={() => void replies.fetchNextPage()}
          data-testid="more-replies"
        >
          {t('post.moreReplies')}
        </button>
      )}
      {expanded && replies.isError && <StateView kind="error" compact error={replies.error} onRetry={() => void replies.refetch()} />}
      {expanded && !replies.hasNextPage && c.replyCount > 3 && (
        <button type="button" className={styles.expand} onClick={() => setExpanded(false)} data-testid="collapse-replies">
          {t('post.collapseReplies')}
        </button>
      )}
    </li>
  )
}

function Line({
  c,
  postID,
  token,
  postMine,
  small,
  onReply,
}: {
  c: PostComment
  postID: number
  token: string | null
  postMine: boolean
  small?: boolean
  onReply: () => void
}) {
  const [confirm, setConfirm] = useState(false)
  const [busy, setBusy] = useState(false)
  const changed = useCommentsChanged(postID, token)
  const published = c.state === 'published'
  const remove = () => {
    setBusy(true)
    deleteComment(c.id)
      .then(() => {
        setConfirm(false)
        toast.success(t('post.deleted'))
        changed(-1)
      })
      .catch(() => {
        // The API client toasted the server's tip.
      })
      .finally(() => setBusy(false))
  }
  const size = small ? 26 : 34
  return (
    <div className={styles.line}>
      <Link to={`/usercenter/${c.author.uid}`} className={styles.lineFace} style={{ width: size, height: size }} aria-label={c.author.name}>
        {c.author.portrait ? <LazyImage src={c.author.portrait} alt="" className={styles.faceImg} /> : <span>{initial(c.author.name)}</span>}
      </Link>
      <div className={styles.lineMain}>
        <p className={styles.lineName}>
          <Link to={`/usercenter/${c.author.uid}`} data-testid="comment-author">
            {c.author.name}
          </Link>
          {c.replyTo && (
            <>
              <span className={styles.arrow} aria-hidden="true">
                ▸
              </span>
              <Link to={`/usercenter/${c.replyTo.uid}`} data-testid="comment-replyto">
                {c.replyTo.name}
              </Link>
            </>
          )}
        </p>
        {published ? (
          <p className={styles.lineText} data-testid="comment-text">
            {c.text}
          </p>
        ) : (
          <p className={`${styles.lineText} ${styles.gone}`} data-testid="comment-gone">
            {t('post.commentDeleted')}
          </p>
        )}
        <p className={styles.lineMeta}>
          <span>{relativeTime(c.createdAt * 1000)}</span>
          {published && (
            <button type="button" className={styles.linkBtn} onClick={onReply} data-testid="comment-reply">
              {t('post.reply')}
            </button>
          )}
          {published && (c.mine || postMine) && (
            <button type="button" className={styles.linkBtn} onClick={() => setConfirm(true)} data-testid="comment-delete">
              {t('post.deleteComment')}
            </button>
          )}
        </p>
      </div>
      {confirm && (
        <Sheet title={t('post.deleteCommentConfirm')} onClose={() => setConfirm(false)} testid="comment-delete-sheet">
          <button type="button" className={styles.sheetDanger} disabled={busy} onClick={remove} data-testid="comment-delete-ok">
            {t('post.deleteOK')}
          </button>
          <button type="button" className={styles.sheetBtn} onClick={() => setConfirm(false)}>
            {t('common.cancel')}
          </button>
        </Sheet>
      )}
    </div>
  )
}

export function initial(name: string): string {
  return [...name.trim()][0] ?? '?'
}
