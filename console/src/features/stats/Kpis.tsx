// The range's figures as cards; data-value holds the raw number (cents
// for money) for tests and screen readers alike.
import { Card, Statistic, Tooltip } from 'antd'
import type { MessageKey } from '@/i18n'
import { useT } from '@/i18n'
import { yuan, type Totals } from './figures'

export interface Kpi {
  key: keyof Totals
  label: MessageKey
  money?: boolean
  hint?: MessageKey
}

export function Kpis({ totals, items, loading }: { totals: Totals; items: Kpi[]; loading: boolean }) {
  const t = useT()
  return (
    <div className="stats-kpis">
      {items.map((k) => {
        const v = totals[k.key] as number
        const card = (
          <Card key={k.key} loading={loading} data-testid={`stats-kpi-${k.key}`} data-value={loading ? '' : String(v)}>
            <Statistic title={t(k.label)} value={k.money ? yuan(v) : v} />
          </Card>
        )
        return k.hint ? (
          <Tooltip key={k.key} title={t(k.hint)}>
            {card}
          </Tooltip>
        ) : (
          card
        )
      })}
    </div>
  )
}
