// Shapes of the support calls (docs/api.md, *Support and information*).

// SupportEntry is a remote-configuration entry (GET /api/app/vid/source):
// FAQ (title = question, url = answer text or link), GROUP, APPS (with icon
// and desc).
export interface SupportEntry {
  id: number
  title: string
  url: string
  weight: number
  icon?: string
  desc?: string
}

export interface Picture {
  id: number
  thumb: string
  display: string
  width: number
  height: number
  placeholder: string
}

export interface Reply {
  id: number
  body: string
  createdAt: string
}

export interface Feedback {
  id: number
  content: string
  contact: string
  status: 'open' | 'replied'
  images: Picture[]
  replies: Reply[]
  createdAt: string
  repliedAt?: string
}

export type SettledState = 'none' | 'pending' | 'approved' | 'rejected'

export interface Application {
  id: number
  name: string
  contact: string
  intro: string
  category: string
  status: Exclude<SettledState, 'none'>
  reason: string
  createdAt: string
  decidedAt?: string
}

export interface Settled {
  state: SettledState
  application: Application | null
  categories: string[]
}
