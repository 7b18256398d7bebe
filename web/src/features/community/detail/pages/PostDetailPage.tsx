// postdetail (/cdetail/:id): a community post. The nav bar shares the link
// and opens the ⋯ menu (report; delete for the author); the author row
// follows; the title and text (plain text, line breaks kept), or an
// article's html as the server sanitised it; the pictures open the swipe
// and pinch viewer; a video plays its preview or the whole; a paid post
// shows the paywall; then likes and the comments with their composer.
import { useCallback, useEffect, useState } from 'react'
import { Link, useNavigate, useParams } from 'react-router'
import { useQueryClient } from '@tanstack/react-query'
import { t } from '@/i18n'
import { relativeTime, formatCount } from '@/lib/time'
import { canGoBack } from '@/lib/nav'
import { shareLink } from '@/lib/share'
import { toast } from '@/lib/toast'
import { LazyImage } from '@/components/LazyImage'
import { NavBar } from '@/components/NavBar'
import { Paywall } from '@/components/Paywall'
import { Picture } from '@/components/Picture'
import { Sheet } from '@/components/Sheet'
import { StateView } from '@/components/StateView'
import { VideoPlayer } from '@/components/VideoPlayer'
import { Viewer } from '@/components/Viewer'
import { useUserStore } from '@/stores/user'
import {
  deletePost,
  isNotFound,
  REPORT_REASONS,
  reportPost,
  useFollowAuthor,
  useLikePost,
  usePost,
  type ReportReason,
} from '@/features/community/detail/api/post'
import { canTakePart, paywallOf } from '@/features/community/detail/access'
import { parsePostID } from '@/features/community/detail/id'
import { postKeys } from '@/features/community/detail/keys'
import { Comments, initial } from '@/features/community/detail/components/Comments'
import { Composer } from '@/features/community/detail/components/Composer'
import type { PostDetail, ReplyTarget } from '@/features/community/detail/types'
import styles from '@/features/community/detail/components/detail.module.css'

export default function PostDetailPage() {
  const id = parsePostID(useParams().id)
  const token = useUserStore((s) => s.token)
  const q = usePost(id, token)
  const [menu, setMenu] = useState(false)

  useEffect(() => {
    window.scrollTo(0, 0)
  }, [id])

  let body
  if (!Number.isFinite(id) || (q.isError && isNotFound(q.error))) {
    body = <NotFound />
  } else if (q.isPending) {
    body = <Skeleton />
  } else if (q.isError) {
    body = <StateView kind="error" error={q.error} onRetry={() => void q.refetch()} />
  } else {
    body = <Detail key={id} post={q.data} token={token} menu={menu} closeMenu={() => setMenu(false)} />
  }
  const ready = q.data != null
  return (
    <div className={styles.page} data-testid="post-page">
      <NavBar
        title={t('route.postdetail.title')}
        back="/community"
        right={
          ready ? (
            <span className={styles.navActions}>
              <button type="button" className={styles.navBtn} onClick={() => void share(q.data.title)} aria-label={t('post.share')} data-testid="post-share">
                <ShareGlyph />
              </button>
              <button type="button" className={styles.navBtn} onClick={() => setMenu(true)} aria-label={t('post.more')} data-testid="post-more">
                <MoreGlyph />
              </button>
            </span>
          ) : undefined
        }
      />
      <main>{body}</main>
    </div>
  )
}

// share offers the post's own address (a post has no other link).
function share(title: string) {
  return shareLink(
    location.href,
    title || t('route.postdetail.title'),
    () => toast.success(t('post.linkCopied')),
    () => toast.text(t('post.copyFailed')),
  )
}

function NotFound() {
  return (
    <div className={styles.notFound} data-testid="post-notfound">
      <StateView kind="empty" title={t('post.notFound')} message={t('post.notFoundHint')} />
      <Link to="/community" className={styles.homeBtn}>
        {t('post.toCommunity')}
      </Link>
    </div>
  )
}

function Skeleton() {
  return (
    <div aria-busy="true" data-testid="post-loading" className={styles.body}>
      <div className={styles.authorRow}>
        <span className={`${styles.face} prima-skeleton`} />
        <span className={`${styles.skLine} prima-skeleton`} />
      </div>
      <span className={`${styles.skLine} prima-skeleton`} />
      <span className={`${styles.skLine} prima-skeleton`} />
      <span className={`${styles.skLine} ${styles.skShort} prima-skeleton`} />
      <div className={`${styles.skBlock} prima-skeleton`} />
    </div>
  )
}

function Detail({ post, token, menu, closeMenu }: { post: PostDetail; token: string | null; menu: boolean; closeMenu: () => void }) {
  const qc = useQueryClient()
  const navigate = useNavigate()
  const isGuest = useUserStore((s) => s.user?.isGuest)
  const member = canTakePart(token, isGuest)
  const like = useLikePost(post.id, token)
  const follow = useFollowAuthor(post.id, token)
  const [viewer, setViewer] = useState<number | null>(null)
  const [reporting, setReporting] = useState(false)
  const [deleting, setDeleting] = useState(false)
  const [target, setTarget] = useState<ReplyTarget | null>(null)
  const [focusKey, setFocusKey] = useState(0)
  const [pulse, setPulse] = useState(0)
  const [previewEnded, setPreviewEnded] = useState(false)
  const published = (post.state ?? 'published') === 'published'
  const paywall = paywallOf(post.access)

  const needMember = () => {
    if (member) return false
    toast.text(t('post.guestTitle'))
    navigate(token ? '/mine/register' : '/mine/login')
    return true
  }
  const onReply = useCallback(
    (to: ReplyTarget) => {
      if (!member) {
        toast.text(t('post.guestTitle'))
        return
      }
      setTarget(to)
      setFocusKey((k) => k + 1)
    },
    [member],
  )
  const afterPurchase = () => void qc.invalidateQueries({ queryKey: postKeys.detail(post.id, token) })

  const toggleLike = () => {
    if (needMember()) return
    if (!post.liked) setPulse((p) => p + 1)
    like.mutate(!post.liked)
  }

  const remove = () => {
    deletePost(post.id)
      .then(() => {
        toast.success(t('post.deleted'))
        qc.removeQueries({ queryKey: postKeys.detail(post.id, token) })
        // Back where the user came from; a post opened from a link has
        // nothing in the app behind it, so the community tab.
        if (canGoBack()) navigate(-1)
        else navigate('/community', { replace: true })
      })
      .catch(() => {
        // The API client toasted the server's tip.
      })
  }

  const report = (reason: ReportReason) =>
    reportPost(post.id, reason)
      .then(() => {
        toast.success(t('post.reported'))
        setReporting(false)
      })
      .catch(() => {})

  const images = post.pictures.map((p, i) => ({
    position: i,
    width: p.width,
    height: p.height,
    placeholder: p.placeholder,
    display: p.url,
    displayWebp: p.urlWebp,
  }))
  const src = post.playback ? (post.access.allowed ? post.playback.master : post.playback.preview) ?? null : null

  return (
    <>
      <article className={styles.body}>
        {post.state === 'pending' && <p className={styles.banner}>{t('post.state.pending')}</p>}
        {post.state === 'rejected' && <p className={`${styles.banner} ${styles.bannerBad}`}>{t('post.state.rejected', { reason: post.reason ?? '' })}</p>}
        <div className={styles.authorRow}>
          <Link to={`/usercenter/${post.author.uid}`} className={styles.authorLink} data-testid="post-author">
            <span className={styles.face}>
              {post.author.portrait ? <LazyImage src={post.author.portrait} alt="" className={styles.faceImg} eager /> : <span>{initial(post.author.name)}</span>}
            </span>
            <span className={styles.authorText}>
              <span className={styles.authorName} data-testid="post-author-name">
                {post.author.name}
              </span>
              <span className={styles.authorMeta}>{relativeTime((post.publishedAt || post.createdAt) * 1000)}</span>
            </span>
          </Link>
          {!post.mine && (
            <button
              type="button"
              className={`${styles.followBtn} ${post.following ? styles.followOn : ''}`}
              aria-pressed={post.following}
              disabled={follow.isPending}
              onClick={() => !needMember() && follow.mutate({ uid: post.author.uid, follow: !post.following })}
              data-testid="post-follow"
            >
              {post.following ? t('post.following') : t('post.follow')}
            </button>
          )}
        </div>

        {post.title && (
          <h1 className={styles.title} data-testid="post-title">
            {post.featured && <span className={styles.featured}>{t('post.featured')}</span>}
            {post.title}
          </h1>
        )}

        {post.kind === 'video' && (
          <div className={styles.video}>
            {post.video?.state === 'failed' ? (
              <p className={styles.videoNote}>{t('post.videoFailed')}</p>
            ) : post.video?.state !== 'ready' ? (
              <p className={styles.videoNote}>{t('post.videoProcessing')}</p>
            ) : (
              <VideoPlayer
                src={src}
                poster={post.video.poster}
                onEnded={() => {
                  if (!post.access.allowed) setPreviewEnded(true)
                }}
                overlay={
                  paywall && (!src || previewEnded) ? (
                    <Paywall paywall={paywall} previewed={previewEnded} buy={{ target: { kind: 'post', id: post.id }, onBought: afterPurchase }} />
                  ) : undefined
                }
              />
            )}
          </div>
        )}

        {post.kind === 'article' && post.html ? (
          // The server sanitised this html (an allow-list, links rel=nofollow,
          // pictures only the author's own uploads, signed here): the one place
          // the app renders markup from a user.
          <div className={styles.article} data-testid="post-article" dangerouslySetInnerHTML={{ __html: post.html }} />
        ) : (
          post.text && (
            <p className={styles.text} data-testid="post-text">
              {post.text}
            </p>
          )
        )}

        {images.length > 0 && (
          <div className={`${styles.grid} ${images.length === 1 ? styles.grid1 : images.length === 2 || images.length === 4 ? styles.grid2 : ''}`} data-testid="post-pictures">
            {images.map((im, i) => (
              <button
                key={post.pictures[i].id}
                type="button"
                className={styles.cell}
                onClick={() => setViewer(i)}
                aria-label={t('post.pictureAlt', { n: i + 1 })}
                data-testid="post-picture"
              >
                <Picture src={post.pictures[i].thumb} webp={post.pictures[i].thumbWebp} placeholder={im.placeholder} alt="" className={styles.cellImg} />
              </button>
            ))}
          </div>
        )}

        {paywall && post.kind !== 'video' && (
          <div className={styles.paywall} data-testid="post-paywall">
            {post.kind === 'article' ? (
              <p className={styles.lockedNote}>{t('post.lockedMore')}</p>
            ) : (
              post.pictureCount > post.pictures.length && <p className={styles.lockedNote}>{t('post.lockedPictures', { n: post.pictureCount })}</p>
            )}
            <Paywall paywall={paywall} buy={{ target: { kind: 'post', id: post.id }, onBought: afterPurchase }} />
          </div>
        )}

        <p className={styles.meta}>
          {post.topic && (
            <Link to={`/community/topic/${post.topic.id}`} className={styles.topic} data-testid="post-topic">
              {t('post.topic', { name: post.topic.name })}
            </Link>
          )}
          <span data-testid="post-views">{t('post.views', { n: formatCount(post.viewCount) })}</span>
        </p>

        <div className={styles.actions}>
          <button
            type="button"
            className={`${styles.likeBtn} ${post.liked ? styles.liked : ''}`}
            aria-pressed={post.liked}
            disabled={!published}
            onClick={toggleLike}
            data-testid="post-like"
          >
            <span key={pulse} className={pulse > 0 && post.liked ? styles.pop : undefined}>
              <Heart on={post.liked} />
            </span>
            <span className="prima-sr-only">{t('post.like')} </span>
            <span data-testid="post-like-count">{formatCount(post.likeCount)}</span>
          </button>
        </div>
      </article>

      <section className={styles.commentBox} aria-labelledby="post-comments-title">
        <h2 id="post-comments-title" className={styles.commentTitle} data-testid="post-comment-count">
          {t('post.comments', { n: formatCount(post.commentCount) })}
        </h2>
        <Comments postID={post.id} token={token} postMine={post.mine} open={published} onReply={onReply} />
      </section>

      {published && (
        <Composer postID={post.id} token={token} allowed={member} target={target} onClearTarget={() => setTarget(null)} focusKey={focusKey} />
      )}

      {viewer != null && <Viewer images={images} start={viewer} title={post.title || post.author.name} onClose={() => setViewer(null)} />}

      {menu && (
        <Sheet title={t('post.more')} onClose={closeMenu} testid="post-menu">
          {!post.mine && (
            <button
              type="button"
              className={styles.sheetBtn}
              onClick={() => {
                closeMenu()
                if (!needMember()) setReporting(true)
              }}
              data-testid="post-menu-report"
            >
              {t('post.report')}
            </button>
          )}
          {post.mine && (
            <button
              type="button"
              className={styles.sheetDanger}
              onClick={() => {
                closeMenu()
                setDeleting(true)
              }}
              data-testid="post-menu-delete"
            >
              {t('post.delete')}
            </button>
          )}
          <button type="button" className={styles.sheetBtn} onClick={closeMenu}>
            {t('common.cancel')}
          </button>
        </Sheet>
      )}
      {reporting && (
        <Sheet title={t('post.reportTitle')} onClose={() => setReporting(false)} testid="post-report-sheet">
          {REPORT_REASONS.map((r) => (
            <button key={r} type="button" className={styles.sheetBtn} onClick={() => void report(r)} data-testid="post-report-reason" data-code={r}>
              {t(`post.reason.${r}`)}
            </button>
          ))}
          <button type="button" className={styles.sheetBtn} onClick={() => setReporting(false)}>
            {t('common.cancel')}
          </button>
        </Sheet>
      )}
      {deleting && (
        <Sheet title={t('post.deleteConfirm')} onClose={() => setDeleting(false)} testid="post-delete-sheet">
          <button type="button" className={styles.sheetDanger} onClick={remove} data-testid="post-delete-ok">
            {t('post.deleteOK')}
          </button>
          <button type="button" className={styles.sheetBtn} onClick={() => setDeleting(false)}>
            {t('common.cancel')}
          </button>
        </Sheet>
      )}
    </>
  )
}

const Heart = ({ on }: { on: boolean }) => (
  <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
    <path
      d="M12 20.5s-7.5-4.6-7.5-10.2A4.3 4.3 0 0 1 12 7.6a4.3 4.3 0 0 1 7.5 2.7c0 5.6-7.5 10.2-7.5 10.2Z"
      fill={on ? 'currentColor' : 'none'}
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinejoin="round"
    />
  </svg>
)

const ShareGlyph = () => (
  <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
    <path d="M12 3v12M7.5 7.5 12 3l4.5 4.5M5 12v7a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-7" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
  </svg>
)

const MoreGlyph = () => (
  <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
    <circle cx="5" cy="12" r="1.8" fill="currentColor" />
    <circle cx="12" cy="12" r="1.8" fill="currentColor" />
    <circle cx="19" cy="12" r="1.8" fill="currentColor" />
  </svg>
)
