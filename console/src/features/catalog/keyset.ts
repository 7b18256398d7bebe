// A keyset pager's state: the cursors of the pages walked so far, so
// "previous" goes back without the server counting anything.
import { useState } from 'react'

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
