// The state of one commission or creator earning: 待结算 (pending, with the
// day it settles when known), 已结算 (settled: now withdrawable income) or
// 已撤销 (reversed: the order was refunded before it settled).
import { t } from '@/i18n'
import '@/i18n/earn'
import type { EarningState } from '@/lib/earn'
import styles from './Earn.module.css'

const LABEL = { pending: 'earn.state.pending', settled: 'earn.state.settled', reversed: 'earn.state.reversed' } as const

export function EarningChip({ state }: { state: EarningState }) {
  return (
    <span className={`${styles.chip} ${styles[`chip-${state}`]}`} data-testid="earn-chip" data-state={state}>
      {t(LABEL[state])}
    </span>
  )
}
