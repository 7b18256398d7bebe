// Pure helpers of the support pages (features/support) and of the customer
// service entry (components/CustomerService): how a remote-configuration
// entry is shown, and the feedback and creator-application rules, which
// mirror the server's (internal/support) so the form says what is wrong
// before a round trip.

// An FAQ entry carries its answer in url: a link (http(s):// address or an
// app path, one token) is opened; anything else is the answer's text.
export type FaqAnswer = { kind: 'link'; url: string } | { kind: 'text'; text: string }

export function faqAnswer(url: string | null | undefined): FaqAnswer {
  const s = (url ?? '').trim()
  if (/^https?:\/\/\S+$/i.test(s) || /^\/(?!\/)\S*$/.test(s)) return { kind: 'link', url: s }
  return { kind: 'text', text: s }
}

// chars counts characters as the server does (code points, not UTF-16 units).
export function chars(s: string): number {
  return Array.from(s).length
}

export const FEEDBACK_MIN = 5
export const FEEDBACK_MAX = 500
export const FEEDBACK_IMAGES = 4
export const CONTACT_MAX = 100

export type FeedbackProblem = 'short' | 'long' | null

// feedbackProblem is what is wrong with a feedback text (trimmed), or null.
export function feedbackProblem(content: string): FeedbackProblem {
  const n = chars(content.trim())
  if (n < FEEDBACK_MIN) return 'short'
  if (n > FEEDBACK_MAX) return 'long'
  return null
}

// Creator application fields: [min, max] characters after trimming.
export const SETTLED_LIMITS = { name: [2, 20], contact: [3, 50], intro: [10, 500] } as const
export type SettledField = keyof typeof SETTLED_LIMITS

// settledProblems lists the fields of an application outside their limits.
export function settledProblems(v: Record<SettledField, string>): SettledField[] {
  return (Object.keys(SETTLED_LIMITS) as SettledField[]).filter((f) => {
    const n = chars(v[f].trim())
    const [min, max] = SETTLED_LIMITS[f]
    return n < min || n > max || (f !== 'intro' && /[\r\n\t]/.test(v[f]))
  })
}

// initial is the letter an app without an icon shows in its place.
export function initial(title: string): string {
  return Array.from(title.trim())[0]?.toUpperCase() ?? '?'
}
