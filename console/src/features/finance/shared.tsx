// Pieces the money pages share (their saves and drawer width are
// lib/hooks.ts's): an amount in yuan and a reconciliation pair with its
// difference in red.
import { Typography } from 'antd'
import { useT } from '@/i18n'
import { yuan } from './money'
import type { ReconPair } from './api'

export function Money({ cents }: { cents: number }) {
  return <span className="mono">{yuan(cents)}</span>
}

// PairCell: a book's total against the ledger's; a non-zero difference in
// red with its amount.
export function PairCell({ pair, testId }: { pair: ReconPair; testId?: string }) {
  const t = useT()
  const bad = pair.diff !== 0
  return (
    <span className="finance-pair" data-testid={testId} data-diff={pair.diff}>
      <span className="mono">
        {yuan(pair.records)} / {yuan(pair.ledger)}
      </span>
      {bad ? (
        <Typography.Text type="danger" strong className="finance-diff">
          {t('finance.recon.diff', { d: yuan(pair.diff) })}
        </Typography.Text>
      ) : null}
    </span>
  )
}
