// userbuy (/mine/userbuy): the videos the user bought (GET
// /api/app/mine/buyVid), newest first; a purchase is permanent, so the
// list only grows. Each card opens the video, which plays in full.
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import { t } from '@/i18n'
import { api } from '@/lib/api'
import { nextPage, type Page } from '@/lib/page'
import { purchaseKeys, type Purchase } from '@/lib/purchase'
import { NavBar } from '@/components/NavBar'
import { PagedGrid } from '@/components/PagedGrid'
import { PullRefresh } from '@/components/PullRefresh'
import { StateView } from '@/components/StateView'
import { VideoCard, VideoCardSkeleton, VideoGrid } from '@/components/VideoCard'
import { useUserStore } from '@/stores/user'
import styles from './Pay.module.css'

export function getBought(pageNumber: number): Promise<Page<Purchase>> {
  return api.get<Page<Purchase>>('/api/app/mine/buyVid', { pageNumber, pageSize: 20 })
}

export default function UserBuyPage() {
  const token = useUserStore((s) => s.token)
  const q = useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: purchaseKeys.bought(token),
      queryFn: ({ pageParam }) => getBought(pageParam),
      initialPageParam: 1,
      getNextPageParam: nextPage,
      enabled: token != null,
    }),
  )
  return (
    <div className={styles.plain} data-testid="mine-videos" data-kind="buy">
      <NavBar title={t('route.userbuy.title')} back="/mine" />
      <main className={styles.list}>
        {token == null ? (
          <StateView kind="empty" title={t('mineVideos.signIn')} />
        ) : (
          <PullRefresh onRefresh={() => q.refetch()}>
            <PagedGrid
              q={q}
              Grid={VideoGrid}
              Skeleton={VideoCardSkeleton}
              empty={t('mineVideos.emptyBuy')}
              item={(p, i) =>
                p.video && (
                  <div key={p.id} data-testid="bought" data-video-id={p.videoID} data-paid-with={p.paidWith}>
                    <VideoCard video={p.video} eager={i < 2} />
                  </div>
                )
              }
            />
          </PullRefresh>
        )}
      </main>
    </div>
  )
}
