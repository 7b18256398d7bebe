// 内容 → 短视频: the videos of short-video modules (type 4), with the video
// list's filters, bulk actions and editor.
import { useT } from '@/i18n'
import { VideoList } from './VideosPage'

export function ShortsPage() {
  const t = useT()
  return <VideoList title={t('content.shorts')} moduleType={4} />
}
