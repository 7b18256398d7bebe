// Keeps a tab row's selected tab (aria-selected) centred by scrolling the
// row only (scrollIntoView would move the page too), as the selection
// moves.
//
// Measuring a tab forces the browser to lay the page out there and then.
// Done in the effect, that layout ran inside React's commit, which on the
// first render of home is the whole page's first layout, so the commit
// became one long task. The row is measured in the next animation frame
// instead, where the layout is due anyway, and not at all on the first
// render when the selected tab is the first: a new row is at its start.
import { useEffect, useRef, type RefObject } from 'react'

export function useSelectedInView(row: RefObject<HTMLElement | null>, selected: string): void {
  const first = useRef(true)
  useEffect(() => {
    const mounting = first.current
    first.current = false
    const el = row.current
    const tab = el?.querySelector<HTMLElement>('[aria-selected="true"]')
    if (!el || !tab) return
    if (mounting && tab === el.firstElementChild) return
    const frame = requestAnimationFrame(() => {
      const left = tab.offsetLeft - (el.clientWidth - tab.offsetWidth) / 2
      el.scrollTo({ left: Math.max(0, left), behavior: mounting ? 'auto' : 'smooth' })
    })
    return () => cancelAnimationFrame(frame)
  }, [row, selected])
}
