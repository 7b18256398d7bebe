// Glyphs of the detail page's actions: like (heart), favourite (star),
// share (arrow out of a tray) and report (flag). Filled when on.
const box = { width: 24, height: 24, viewBox: '0 0 24 24', 'aria-hidden': true } as const

export const HeartIcon = ({ on }: { on: boolean }) => (
  <svg {...box}>
    <path
      d="M12 20.5s-7.5-4.6-7.5-10.2A4.3 4.3 0 0 1 12 7.6a4.3 4.3 0 0 1 7.5 2.7c0 5.6-7.5 10.2-7.5 10.2Z"
      fill={on ? 'currentColor' : 'none'}
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinejoin="round"
    />
  </svg>
)

export const StarIcon = ({ on }: { on: boolean }) => (
  <svg {...box}>
    <path
      d="m12 3.8 2.5 5.1 5.6.8-4 4 .9 5.6-5-2.6-5 2.6.9-5.6-4-4 5.6-.8Z"
      fill={on ? 'currentColor' : 'none'}
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinejoin="round"
    />
  </svg>
)

export const FlagIcon = () => (
  <svg {...box}>
    <path d="M6 21V4m0 0h10l-2 4 2 4H6" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round" strokeLinecap="round" />
  </svg>
)

export const ShareIcon = () => (
  <svg {...box}>
    <path
      d="M12 15V4m0 0L8 8m4-4 4 4M6 11H5v9h14v-9h-1"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinejoin="round"
      strokeLinecap="round"
    />
  </svg>
)
