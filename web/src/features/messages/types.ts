// Shapes of the message centre's calls (docs/api.md, *Messages*).
import type { NoticeCategory } from './keys'

export interface Person {
  uid: number
  name: string
  portrait: string
  vipLevel: number
}

export interface Notice {
  id: number
  category: NoticeCategory
  kind: string // withdraw, follow, like, feedback_reply, settled, ...
  title: string
  body: string
  ref: string
  actor: Person | null
  createdAt: string
  read: boolean
}

export interface Picture {
  url: string
  thumb: string
  width: number
  height: number
}

export interface Message {
  id: number
  from: number
  to: number
  kind: 'text' | 'image'
  text: string
  image: Picture | null
  clientId?: string
  createdAt: string
  read: boolean
  fromMe: boolean
}

export interface History {
  peer: Person
  blocked: boolean // I blocked the peer
  blockedBy: boolean // the peer blocked me
  list: Message[] // newest first
  hasMore: boolean
  before: number
  peerReadUpTo: number
}

export interface Conversation {
  peer: Person
  lastMessage: { id: number; kind: 'text' | 'image'; text: string; at: string; fromMe: boolean }
  unread: number
}
