// POST /api/app/message/send, /message/read, /message/block and
// /message/report: the chat page's actions.
import { api } from '@/lib/api'
import type { Message } from '@/features/messages/types'

export interface SendBody {
  uid: number
  kind: 'text' | 'image'
  text?: string
  assetId?: number
  clientId: string
}

// sendMessage does not toast: the chat shows a failed bubble with retry instead
// of a toast; the same clientId on retry makes one message.
export function sendMessage(body: SendBody): Promise<Message> {
  return api.post<Message>('/api/app/message/send', body)
}

export function readMessages(uid: number, upTo: number): Promise<{ unread: number }> {
  return api.post<{ unread: number }>('/api/app/message/read', { uid, upTo })
}

export function setBlocked(uid: number, block: boolean): Promise<{ blocked: boolean }> {
  return api.post<{ blocked: boolean }>('/api/app/message/block', { uid, block }, { toast: true })
}

export function reportUser(uid: number, reason: string): Promise<{ id: number }> {
  return api.post<{ id: number }>('/api/app/message/report', { uid, reason }, { toast: true })
}
