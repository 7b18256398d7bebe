// The mine lists of videos: liked (/mine/userlike), favourites
// (/mine/userfav) and browse history (/mine/userbroswer). One page shape:
// a navigation bar, a two-column grid of cards that open the detail,
// loading more as the user scrolls, pull to refresh, and the empty and
// error states.
import type { ReactNode } from 'react'
import { t, type MessageKey } from '@/i18n'
import { PagedGrid } from '@/components/PagedGrid'
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

  const body =
    token == null ? (
      <StateView kind="empty" title={t('mineVideos.signIn')} />
    ) : (
      <PagedGrid
        q={q}
        Grid={VideoGrid}
        Skeleton={VideoCardSkeleton}
        empty={t(TEXT[kind].empty)}
        item={(v, i) => <VideoCard key={v.id} video={v} eager={i < 2} />}
      />
    )

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
