// The app's mark, public/favicon.svg drawn inline: no request, so it is in
// the first frame wherever it appears (logo.test.ts keeps the two the same).
// useId keeps the gradient's id unique when the mark shows twice.
import { useId } from 'react'

export const LOGO_PATH = 'M206 160c0-16 17-26 31-18l136 88c13 8 13 28 0 36l-136 88c-14 8-31-2-31-18z'
export const LOGO_STOPS = ['#ff5f6d', '#ff9f43'] as const

export function Logo({ size, className }: { size: number; className?: string }) {
  const id = useId()
  return (
    <svg className={className} width={size} height={size} viewBox="0 0 512 512" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id={id} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor={LOGO_STOPS[0]} />
          <stop offset="1" stopColor={LOGO_STOPS[1]} />
        </linearGradient>
      </defs>
      <rect width="512" height="512" rx="112" fill={`url(#${id})`} />
      <path d={LOGO_PATH} fill="#fff" />
    </svg>
  )
}
