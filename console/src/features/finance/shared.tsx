// Pieces the money pages share: a mutation with the console's success and
// error messages, the drawer width, an amount in yuan
// and a reconciliation pair with its difference in red.
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query'
import { App, Grid, Typography } from 'antd'
import { useT, type MessageKey } from '@/i18n'
import { errorTip } from '@/components/ErrorState'
import { yuan } from './money'
import type { ReconPair } from './api'

// useMoneySave runs fn with a success message (done; none when null), the
// server's tip on failure (a cancelled step-up included) and the money
// queries refreshed.
export function useMoneySave<V, R>(fn: (v: V) => Promise<R>, done: MessageKey | null, invalidate: QueryKey, after?: (r: R, v: V) => void) {
  const t = useT()
  const qc = useQueryClient()
  const { message } = App.useApp()
  return useMutation({
    mutationFn: fn,
    onSuccess: (r, v) => {
      if (done) void message.success(t(done))
      void qc.invalidateQueries({ queryKey: invalidate })
      after?.(r, v)
    },
    onError: (e) => void message.error(errorTip(e, t)),
  })
}

// useDrawerSize: a fixed width on a laptop, the whole screen on a phone.
export function useDrawerSize(): number | string {
  const screens = Grid.useBreakpoint()
  return screens.md ? 520 : '100%'
}

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
