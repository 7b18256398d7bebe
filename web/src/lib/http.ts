// The user-facing message for an HTTP status without a better one from the
// server (spec §8). Statuses outside the catalogue show the status text; an
// HTTP/2 response has none, so then a generic "failed (status)" message.
import { t } from '@/i18n'

export const KNOWN_STATUSES = [400, 401, 403, 404, 405, 406, 410, 422, 500, 502, 503, 504] as const

const isKnown = (s: number): s is (typeof KNOWN_STATUSES)[number] => (KNOWN_STATUSES as readonly number[]).includes(s)

export function statusMessage(status: number, statusText?: string | null): string {
  if (isKnown(status)) return t(`http.${status}`)
  const text = statusText?.trim()
  return text ? text : t('http.other', { status })
}
