// discover (/discover): a way into everything that is not on home's tabs.
// The spec names the route only; we read it as a discovery hub: the
// operator's tags (GET /api/app/tag/conf/list, kept in the config store)
// as chips that open a search for the tag, then the most played videos of
// every video module across the screens (home's, the dark zone's and the
// short-video modules), each block leading to its own screen.
import { Link } from 'react-router'
import { t } from '@/i18n'
import { ChevronRightIcon } from '@/components/icons'
import { NavBar } from '@/components/NavBar'
import { StateView } from '@/components/StateView'
import { useConfigStore } from '@/stores/config'
import { useModules } from '@/features/catalog/api/get-modules'
import { useTopVideos } from '@/features/catalog/api/get-top-videos'
import { VideoCard, VideoCardSkeleton, VideoGrid } from '@/components/VideoCard'
import type { Module } from '@/features/catalog/types'
import { sourceLink } from '@/features/catalog/source'
import feed from '@/features/catalog/components/Feed.module.css'
import styles from './DiscoverPage.module.css'

// moreLink: where a module's block leads. Home and dark modules open every
// video of the module on /source, most played first like the picks above
// it; a short-video module opens its feed.
function moreLink(m: Module): string {
  if (m.moduleType === 4) return `/sourceshortvideo?moduleID=${m.moduleID}`
  return sourceLink({ moduleID: m.moduleID }, 1)
}

function ModuleBlock({ module: m }: { module: Module }) {
  const top = useTopVideos(m.moduleID)
  const list = top.data?.list ?? []
  return (
    <section className={feed.section} data-testid="discover-section" data-module-id={m.moduleID}>
      <header className={feed.sectionHead}>
        <h2 className={feed.sectionTitle}>{m.moduleName}</h2>
        <Link to={moreLink(m)} className={`${feed.more} prima-hit`} data-testid="discover-more">
          {t('home.more')}
          <ChevronRightIcon size={14} />
        </Link>
      </header>
      {top.isPending ? (
        <VideoGrid>
          {[0, 1].map((i) => (
            <VideoCardSkeleton key={i} />
          ))}
        </VideoGrid>
      ) : top.isError ? (
        <StateView kind="error" compact error={top.error} onRetry={() => void top.refetch()} />
      ) : list.length === 0 ? (
        <StateView kind="empty" compact title={t('home.sectionEmpty')} />
      ) : (
        <VideoGrid>
          {list.map((v) => (
            <VideoCard key={v.id} video={v} />
          ))}
        </VideoGrid>
      )}
    </section>
  )
}

export default function DiscoverPage() {
  const tags = useConfigStore((s) => s.tags)
  const home = useModules(0)
  const dark = useModules(2)
  const shorts = useModules(4)
  const all = [home, dark, shorts]
  const modules = all.flatMap((q) => q.data ?? [])
  const pending = all.some((q) => q.isPending)
  const failed = all.find((q) => q.isError && !q.data)

  let body
  if (pending && modules.length === 0) body = <StateView kind="loading" />
  else if (failed && modules.length === 0) body = <StateView kind="error" error={failed.error} onRetry={() => all.forEach((q) => void q.refetch())} />
  else if (modules.length === 0 && tags.length === 0) body = <StateView kind="empty" title={t('discover.empty')} />
  else
    body = modules.map((m) => <ModuleBlock key={m.moduleID} module={m} />)

  return (
    <div className={styles.page} data-testid="discover-page">
      <NavBar title={t('discover.title')} back={false} />
      <main className={styles.main}>
        <section className={styles.tags} aria-labelledby="discover-tags">
          <h2 id="discover-tags" className={feed.sectionTitle}>
            {t('discover.tags')}
          </h2>
          {tags.length === 0 ? (
            <p className={styles.none}>{t('discover.noTags')}</p>
          ) : (
            <ul className={styles.chips}>
              {tags.map((tag) => (
                <li key={tag.id}>
                  <Link to={`/search/result?keyword=${encodeURIComponent(tag.name)}`} className={styles.chip} data-testid="discover-tag">
                    #{tag.name}
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className={styles.tags} aria-labelledby="discover-galleries">
          <h2 id="discover-galleries" className={feed.sectionTitle}>
            {t('discover.galleries')}
          </h2>
          <ul className={styles.chips}>
            <li>
              <Link to="/galleryCategory" className={styles.chip} data-testid="discover-gallery-category">
                {t('discover.galleryCategory')}
              </Link>
            </li>
            <li>
              <Link to="/galleryVip" className={styles.chip} data-testid="discover-gallery-vip">
                {t('discover.galleryVip')}
              </Link>
            </li>
          </ul>
        </section>
        {body}
      </main>
    </div>
  )
}
