// The mine lists of videos: liked (/mine/userlike), favourites
// (/mine/userfav) and browse history (/mine/userbroswer). One page shape:
// a navigation bar, a two-column grid of cards that open the detail,
// loading more as the user scrolls, pull to refresh, and the empty and
// error states.
import type { ReactNode } from 'react'
import { t, type MessageKey } from '@/i18n'
import { LoadMore } from '@/components/LoadMore'
import { NavBar } from '@/components/NavBar'
import { PullRefresh } from '@/components/PullRefresh'
import { StateView } from '@/components/StateView'
import { VideoCard, VideoCardSkeleton, VideoGrid } from '@/components/VideoCard'
import { useUserStore } from '@/stores/user'
import { useMineVideos } from '@/features/video/api/mine-videos'
import type { MineListKind } from '@/features/video/keys'
import styles from './MineVideosPage.module.css'

const TEXT: Record<MineListKind, { title: MessageKey; empty: MessageKey }> = {
  like: { title: 'route.userlike.title', empty: 'mineVideos.emptyLike' },
  fav: { title: 'route.userfav.title', empty: 'mineVideos.emptyFav' },
  history: { title: 'route.userbroswer.title', empty: 'mineVideos.emptyHistory' },
}

// header sits under the navigation bar (the favourites page's tabs).
export function MineVideosPage({ kind, header }: { kind: MineListKind; header?: ReactNode }) {
  const token = useUserStore((s) => s.token)
  const q = useMineVideos(kind, token)

  let body
  if (token == null) {
    body = <StateView kind="empty" title={t('mineVideos.signIn')} />
  } else if (q.isPending) {
    body = (
      <VideoGrid>
        {Array.from({ length: 6 }, (_, i) => (
          <VideoCardSkeleton key={i} />
        ))}
      </VideoGrid>
    )
  } else if (q.isError && !q.data) {
    body = <StateView kind="error" error={q.error} onRetry={() => void q.refetch()} />
  } else {
    const videos = q.data.pages.flatMap((p) => p.list)
    body =
      videos.length === 0 ? (
        <StateView kind="empty" title={t(TEXT[kind].empty)} />
      ) : (
        <>
          <VideoGrid>
            {videos.map((v, i) => (
              <VideoCard key={v.id} video={v} eager={i < 2} />
            ))}
          </VideoGrid>
          <LoadMore
            hasMore={q.hasNextPage}
            loading={q.isFetchingNextPage}
            error={q.isFetchNextPageError}
            onLoad={() => void q.fetchNextPage()}
          />
        </>
      )
  }

  return (
    <div className={styles.page} data-testid="mine-videos" data-kind={kind}>
      <NavBar title={t(TEXT[kind].title)} back="/mine" />
      <main className={styles.body}>
        {header}
        <PullRefresh onRefresh={() => q.refetch()}>
          <div className={styles.list}>{body}</div>
        </PullRefresh>
      </main>
    </div>
  )
}
