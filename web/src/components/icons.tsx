// Inline SVG icons of the shell: no icon font, no extra request, and they
// take the text colour. Tab icons fill when active, as iOS tab bars do.
import type { SVGProps } from 'react'

type IconProps = SVGProps<SVGSVGElement> & { active?: boolean; size?: number }

function Svg({ active, size = 24, children, ...rest }: IconProps) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill={active ? 'currentColor' : 'none'}
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...rest}
    >
      {children}
    </svg>
  )
}

export const HomeIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M3.5 10.2 12 3.5l8.5 6.7V19a1.5 1.5 0 0 1-1.5 1.5h-4.2v-5.7H9.2v5.7H5A1.5 1.5 0 0 1 3.5 19z" />
  </Svg>
)

export const CommunityIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M12 3.5c4.7 0 8.5 3.2 8.5 7.2s-3.8 7.2-8.5 7.2c-.9 0-1.8-.1-2.6-.3L5 19.8l.9-3.6c-1.5-1.3-2.4-3.1-2.4-5.1 0-4 3.8-7.6 8.5-7.6z" />
  </Svg>
)

export const ShortVideoIcon = (p: IconProps) => (
  <Svg {...p} fillRule="evenodd">
    <path d="M8.5 2.5h7a3 3 0 0 1 3 3v13a3 3 0 0 1-3 3h-7a3 3 0 0 1-3-3v-13a3 3 0 0 1 3-3zM10.3 8.8v6.4l5-3.2z" />
  </Svg>
)

export const DarkIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M20 14.6A8.3 8.3 0 0 1 9.4 4a8.3 8.3 0 1 0 10.6 10.6z" />
  </Svg>
)

export const MineIcon = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="12" cy="8" r="4" />
    <path d="M4.5 20.5c.6-3.9 3.8-6.3 7.5-6.3s6.9 2.4 7.5 6.3z" />
  </Svg>
)

export const DiscoverIcon = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="12" cy="12" r="8.5" />
    <path d="m15.5 8.5-2 5-5 2 2-5z" />
  </Svg>
)

export const BackIcon = (p: IconProps) => (
  <Svg strokeWidth={2.4} {...p}>
    <path d="M15 4.5 7.5 12l7.5 7.5" />
  </Svg>
)

export const ChevronRightIcon = (p: IconProps) => (
  <Svg strokeWidth={2} size={16} {...p}>
    <path d="m9 5 7 7-7 7" />
  </Svg>
)

export const RefreshIcon = (p: IconProps) => (
  <Svg size={14} strokeWidth={2.2} {...p}>
    <path d="M20 11a8 8 0 0 0-14.3-4.9L4 8M4 4v4h4M4 13a8 8 0 0 0 14.3 4.9L20 16m0 4v-4h-4" />
  </Svg>
)

export const SpeakerIcon = (p: IconProps) => (
  <Svg size={16} {...p}>
    <path d="M4 9.5v5h3.5l5 4v-13l-5 4zM16 9a4 4 0 0 1 0 6M18.5 6.5a7.5 7.5 0 0 1 0 11" />
  </Svg>
)

export const PlayIcon = (p: IconProps) => (
  <Svg size={12} strokeWidth={2} {...p}>
    <path d="M7 4.5v15l12-7.5z" />
  </Svg>
)

export const GearIcon = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="12" cy="12" r="3" />
    <path d="M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5v.2a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1h.2a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z" />
  </Svg>
)
