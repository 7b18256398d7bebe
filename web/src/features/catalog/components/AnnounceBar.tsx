// The announcement bar under the home tabs: one announcement at a time,
// rotating; a tap opens it in full (and follows its link from there). The
// dialog's code loads on the first tap.
import { useEffect, useState } from 'react'
import { useNavigate } from 'react-router'
import { t } from '@/i18n'
import { linkOf, openLink } from '@/lib/links'
import { SpeakerIcon } from '@/components/icons'
import { useAnnouncements } from '@/features/catalog/api/get-announcements'
import type { Announcement } from '@/features/catalog/types'
import styles from './AnnounceBar.module.css'

const ROTATE_MS = 4000

export function AnnounceBar() {
  const { data } = useAnnouncements()
  const navigate = useNavigate()
  const list = data ?? []
  const [i, setI] = useState(0)

  useEffect(() => {
    if (list.length < 2) return
    const id = setInterval(() => setI((n) => (n + 1) % list.length), ROTATE_MS)
    return () => clearInterval(id)
  }, [list.length])

  if (list.length === 0) return null
  const current = list[i % list.length]

  const open = async (a: Announcement) => {
    // The loader itself is imported on the tap too, so home's first visit
    // does not fetch it as a chunk of its own.
    const Dialog = await (await import('@/lib/dialog')).loadDialog()
    const hasLink = linkOf(a) !== ''
    Dialog.show({
      title: a.title,
      content: <div className={styles.content}>{a.content || a.title}</div>,
      closeOnAction: true,
      closeOnMaskClick: true,
      actions: hasLink
        ? [[{ key: 'close', text: t('common.close') }, { key: 'open', text: t('announce.open'), bold: true, onClick: () => void openLink(a, navigate) }]]
        : [{ key: 'ok', text: t('common.ok'), bold: true }],
    })
  }

  return (
    <button type="button" className={`${styles.bar} prima-hit`} onClick={() => void open(current)} data-testid="announce-bar">
      <SpeakerIcon className={styles.icon} />
      {/* Heard before the title (the visible text stays the name, as VoiceOver expects). */}
      <span className="prima-sr-only">{t('announce.label')}: </span>
      <span className={styles.viewport}>
        <span key={current.id} className={styles.text}>
          {current.title}
        </span>
      </span>
      {list.length > 1 && (
        <span className={styles.count}>
          {(i % list.length) + 1}/{list.length}
        </span>
      )}
    </button>
  )
}
