// The welfare page's data (docs/api.md, *Welfare*) and the pure helpers
// that place it on screen: the 7-day strip, a task's button, a prize's
// availability. Unit-tested in model.test.ts.

export interface DayReward {
  points?: number
  coins?: number
}

export interface CycleDay {
  day: number
  reward: DayReward
  done: boolean
}

export interface CheckinState {
  checkedToday: boolean
  streak: number
  days: CycleDay[]
  todayReward: DayReward
  points: number
}

export interface CheckinResult {
  streak: number
  day: number
  reward: DayReward
  // The tasks the check-in completed and paid in the same tap (每日签到).
  tasks?: { taskId: number; title: string; reward: DayReward }[]
  points: number
}

export type TaskStateName = 'todo' | 'claimable' | 'claimed'

export interface Task {
  id: number
  title: string
  desc: string
  kind: 'daily' | 'once'
  metric: string
  target: number
  progress: number
  reward: DayReward
  state: TaskStateName
  link: string
}

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
  stock: number | null
  perUserLimit: number
}

export interface Prizes {
  points: number
  list: Prize[]
}

export interface PointEntry {
  id: number
  delta: number
  balanceAfter: number
  kind: string
  ref: string
  createdAt: number // unix seconds
}

export interface PointRecords {
  list: PointEntry[]
  total: number
  hasMore: boolean
}

// signed shows a points change with its sign: +5, -100.
export function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n)
}

export type StripCell = CycleDay & { today: boolean }

// strip marks which cell of the 7-day strip is today's: the cell checked
// in today, or the next one to check in.
export function strip(st: CheckinState): StripCell[] {
  const done = st.days.filter((d) => d.done).length
  const today = st.checkedToday ? done : done + 1
  return st.days.map((d) => ({ ...d, today: d.day === today }))
}

// progressPercent is a task's bar, 0..100, full once done.
export function progressPercent(t: Pick<Task, 'progress' | 'target'>): number {
  if (t.target <= 0) return 100
  return Math.max(0, Math.min(100, Math.round((Math.min(t.progress, t.target) / t.target) * 100)))
}

export type TaskAction = { kind: 'go'; to: string } | { kind: 'claim' } | { kind: 'claimed' } | { kind: 'none' }

// taskAction is what a task's button does: go to where it is done
// (an in-app path only), claim the reward, or show it claimed.
export function taskAction(t: Pick<Task, 'state' | 'link'>): TaskAction {
  if (t.state === 'claimed') return { kind: 'claimed' }
  if (t.state === 'claimable') return { kind: 'claim' }
  if (t.link.startsWith('/') && !t.link.startsWith('//')) return { kind: 'go', to: t.link }
  return { kind: 'none' }
}

export type PrizeBlock = 'stock' | 'points' | null

// prizeBlock says why a prize cannot be exchanged now, if it cannot.
export function prizeBlock(p: Pick<Prize, 'stock' | 'cost'>, points: number): PrizeBlock {
  if (p.stock != null && p.stock <= 0) return 'stock'
  if (points < p.cost) return 'points'
  return null
}
