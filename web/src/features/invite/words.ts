// How the promoter pages name things: levels, tiers, the settlement delay,
// periods and the figures of the promotion data. The strings are the
// earnings catalogue's (i18n/earn.ts), which this module brings along.
import { t } from '@/i18n'
import '@/i18n/earn'
import type { Period } from '@/features/invite/keys'
import type { Tier } from '@/features/invite/promoter'

const LEVELS = { 1: 'earn.level1', 2: 'earn.level2', 3: 'earn.level3' } as const

// levelName: 一级 / 二级 / 三级 (the inviter chain: my invitee, their
// invitee, ...), else "第 n 级".
export function levelName(n: number): string {
  return n in LEVELS ? t(LEVELS[n as 1 | 2 | 3]) : t('earn.levelN', { n })
}

export function tierLabel(tier: Tier): string {
  return t(tier === 'promoter' ? 'earn.tier.promoter' : 'earn.tier.member')
}

// settleText: when commission becomes withdrawable income.
export function settleText(days: number): string {
  return days <= 0 ? t('earn.settleNow') : t('earn.settleDays', { n: days })
}

export const PERIOD_LABEL = { day: 'earn.period.day', week: 'earn.period.week', month: 'earn.period.month' } as const satisfies Record<Period, string>

const WEEKDAYS = ['earn.wd0', 'earn.wd1', 'earn.wd2', 'earn.wd3', 'earn.wd4', 'earn.wd5', 'earn.wd6'] as const

export function weekdayName(n: number): string {
  return n >= 0 && n < 7 ? t(WEEKDAYS[n]) : ''
}
