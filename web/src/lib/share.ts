// Sharing a link: the system share sheet where the browser has one (iOS
// Safari), else the link copied to the clipboard. The short feed and the
// video detail share a video's page; the post detail shares its own.
import { t } from '@/i18n'
import { toast } from '@/lib/toast'

export function detailURL(id: number, origin = location.origin): string {
  return `${origin}/detail/${id}`
}

// shareLink offers url under title; copied or failed says how the copy
// went (the sheet needs no word, and the user closing it is no failure).
export async function shareLink(url: string, title: string, copied: () => void, failed: () => void): Promise<void> {
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share({ title, url })
      return
    } catch (e) {
      if (e instanceof DOMException && e.name === 'AbortError') return
    }
  }
  try {
    await navigator.clipboard.writeText(url)
    copied()
  } catch {
    failed()
  }
}

export function shareVideo(id: number, title: string): Promise<void> {
  const url = detailURL(id)
  return shareLink(
    url,
    title,
    () => toast.text(t('short.linkCopied')),
    () => toast.text(t('short.shareFailed', { url })),
  )
}
