// Hooks the console's pages share: a keyset pager's state, the drawer
// width, and a save with the console's messages and the queries refreshed.
import { useState } from 'react'
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query'
import { App, Grid } from 'antd'
import { useT, type MessageKey } from '@/i18n'
import { errorTip } from '@/components/ErrorState'

// A keyset pager's state: the cursors of the pages walked so far, so
// "previous" goes back without the server counting anything.
export interface Keyset {
  cursor: string | undefined
  page: number
  next: (c: string | null | undefined) => void
  prev: () => void
  reset: () => void
}

export function useKeyset(): Keyset {
  const [stack, setStack] = useState<string[]>([])
  return {
    cursor: stack.at(-1),
    page: stack.length + 1,
    next: (c) => {
      if (c) setStack((s) => [...s, c])
    },
    prev: () => setStack((s) => s.slice(0, -1)),
    reset: () => setStack([]),
  }
}

// useDrawerSize: a fixed width on a laptop, the whole screen on a phone.
export function useDrawerSize(): number | string {
  const screens = Grid.useBreakpoint()
  return screens.md ? 560 : '100%'
}

// useSave runs fn with a success message (done; none when null), the
// server's tip on failure (a cancelled step-up included) and the queries
// under invalidate refreshed.
export function useSave<V, R>(fn: (v: V) => Promise<R>, done: MessageKey | null, invalidate: QueryKey, after?: (r: R, v: V) => void) {
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
