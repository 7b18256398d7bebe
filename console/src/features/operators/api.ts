// Operator management (owner only; creating, role changes and TOTP resets
// need a step-up, which the client asks for).
import { api } from '@/lib/client'
import type { Role } from '@/lib/session'
import type { Timestamp } from '@/lib/time'

export interface Operator {
  uid: number
  account: string
  name: string
  role: Role
  totp: boolean
  createdAt: Timestamp
}

export const getOperators = () => api.get<{ list: Operator[] }>('/api/admin/operators')
export const createOperator = (account: string, role: Role) => api.post<{ operator: Operator; password: string }>('/api/admin/operators', { account, role })
export const setOperatorRole = (uid: number, role: Role) => api.post<unknown>('/api/admin/operators/role', { uid, role })
export const resetOperatorTotp = (uid: number) => api.post<unknown>('/api/admin/operators/reset-totp', { uid })

export const operatorKeys = {
  all: ['operators'] as const,
}
