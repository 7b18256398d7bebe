// Sharing a video: the system share sheet where the browser has one, else
// the link to its detail page copied to the clipboard (the short feed and
// the detail page).
import { t } from '@/i18n'
import { toast } from '@/lib/toast'

export function detailURL(id: number, origin = location.origin): string {
  return `${origin}/detail/${id}`
}

export async function shareVideo(id: number, title: string): Promise<void> {
  const url = detailURL(id)
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share({ title, url })
      return
    } catch (e) {
      // The user closing the sheet is not a failure to report.
      if (e instanceof DOMException && e.name === 'AbortError') return
    }
  }
  try {
    await navigator.clipboard.writeText(url)
    toast.text(t('short.linkCopied'))
  } catch {
    toast.text(t('short.shareFailed', { url }))
  }
}
