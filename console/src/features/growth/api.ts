// Growth (docs/api.md *Welfare*, *Redemption codes*, *Invitations*,
// *Search*): the check-in cycle, tasks, points prizes, redemption-code
// batches, the invitation settings and list, the search pins beside the
// hot list the phone gets.
import { api } from '@/lib/client'
import type { Timestamp } from '@/lib/time'

// A keyset page: nextCursor opens the next one (null on the last).
export interface CursorPage<T> {
  list: T[]
  nextCursor: string | null
}

export const PAGE = 20

// One day of the seven-day check-in cycle.
export interface DayReward {
  points?: number
  coins?: number
}

export const getCycle = () => api.get<{ days: DayReward[] }>('/api/admin/rewards/checkin')
export const saveCycle = (days: DayReward[]) => api.post<{ days: DayReward[] }>('/api/admin/rewards/checkin', { days })

export const TASK_KINDS = ['daily', 'once'] as const
export type TaskKind = (typeof TASK_KINDS)[number]
export const METRICS = ['watch', 'like', 'checkin', 'follow', 'topup', 'bind_phone', 'portrait'] as const
export type Metric = (typeof METRICS)[number]

export interface TaskDef {
  id: number
  title: string
  desc: string
  kind: TaskKind
  metric: Metric
  target: number
  reward: DayReward
  link: string
  active: boolean
  sort: number
}

export const getTasks = () => api.get<TaskDef[]>('/api/admin/rewards/tasks')
export const saveTask = (t: TaskDef) => api.post<{ id: number }>('/api/admin/rewards/tasks', t)

export interface PrizeReward {
  coins?: number
  vipLevel?: number
  vipDays?: number
  coupons?: number
}

export interface Prize {
  id: number
  title: string
  image?: string
  cost: number
  reward: PrizeReward
  stock: number | null // null: unlimited
  perUserLimit: number
  active: boolean
  sort: number
}

export const getPrizes = () => api.get<Prize[]>('/api/admin/rewards/prizes')
// stockBefore: the stock the editor showed (an edit only); the server
// refuses with 409 when exchanges moved it meanwhile.
export const savePrize = (p: Prize, stockBefore?: number | null) =>
  api.post<{ id: number }>('/api/admin/rewards/prizes', stockBefore === undefined ? p : { ...p, stockBefore })

export interface Reward {
  coins: number
  vipLevel: number
  vipDays: number
  coupons: number
}

export interface Batch {
  id: number
  name: string
  reward: Reward
  count: number
  usesPerCode: number
  expiresAt: number // unix seconds, 0 never
  disabledAt: number // unix seconds, 0 enabled
  createdBy: number
  createdAt: number
  redeemed: number
  codesUsedUp: number
}

export interface NewBatch {
  name: string
  reward: Reward
  count: number
  usesPerCode: number
  expiresAt: number
}

export const getBatches = (cursor: string | undefined) => api.get<CursorPage<Batch>>('/api/admin/codes/batches', { cursor, pageSize: PAGE })
// The answer is the only place the plain codes ever are.
export const createBatch = (b: NewBatch) => api.post<{ batch: Batch; codes: string[] }>('/api/admin/codes/batches', b)
export const disableBatch = (id: number) => api.post<{ id: number; disabled: boolean }>('/api/admin/codes/batches/disable', { id })

export interface InviteConfig {
  rewardCoins: number
  windowDays: number
  dailyCap: number
  rules: string
}

export interface InvitePerson {
  uid: number
  name: string
  portrait: string
}

export interface Invitation {
  inviter: InvitePerson
  invitee: InvitePerson
  source: string
  boundAt: Timestamp
  registered: boolean
  rewardState: string
  rewardCoins: number
}

export const getInviteConfig = () => api.get<InviteConfig>('/api/admin/rewards/invite')
export const saveInviteConfig = (c: InviteConfig) => api.post<InviteConfig>('/api/admin/rewards/invite', c)
export const getInvitations = (inviter: number | undefined, cursor: string | undefined) =>
  api.get<CursorPage<Invitation>>('/api/admin/invites/list', { inviter, cursor, pageSize: PAGE })

export interface HotWord {
  word: string
  pinned: boolean
  count: number
}

export const getPins = () => api.get<{ words: string[]; hot: HotWord[] }>('/api/admin/search/pins')
export const savePins = (words: string[]) => api.post<{ words: string[] }>('/api/admin/search/pins', { words })

export const growthKeys = {
  all: ['growth'] as const,
  cycle: ['growth', 'checkin'] as const,
  tasks: ['growth', 'tasks'] as const,
  prizes: ['growth', 'prizes'] as const,
  allBatches: ['growth', 'batches'] as const,
  batches: (cursor: string | undefined) => ['growth', 'batches', cursor] as const,
  invite: ['growth', 'invite'] as const,
  invitations: (inviter: number | undefined, cursor: string | undefined) => ['growth', 'invitations', inviter, cursor] as const,
  pins: ['growth', 'pins'] as const,
}
