// Glyphs of the mine page's entry list, each on a tinted rounded square as
// in iOS Settings.
import type { ReactNode } from 'react'

const paths = {
  vip: <path d="m4 8 4 3 4-6 4 6 4-3-2 10H6z" />,
  coin: (
    <>
      <circle cx="12" cy="12" r="8" />
      <path d="M9.5 9.5h4a1.8 1.8 0 0 1 0 3.6h-3a1.8 1.8 0 0 0 0 3.6h4M12 7.5v1.8M12 16.7v1.8" />
    </>
  ),
  gift: (
    <>
      <rect x="4" y="9" width="16" height="11" rx="1.5" />
      <path d="M3 9h18M12 9v11M12 9c-1.5-4-6-4-5-1s5 1 5 1zm0 0c1.5-4 6-4 5-1s-5 1-5 1z" />
    </>
  ),
  invite: (
    <>
      <circle cx="9" cy="8" r="3.5" />
      <path d="M3 19c.5-3.5 3-5.5 6-5.5s5.5 2 6 5.5M18 8v6M15 11h6" />
    </>
  ),
  history: (
    <>
      <circle cx="12" cy="12" r="8" />
      <path d="M12 7.5V12l3 2" />
    </>
  ),
  star: <path d="m12 4 2.4 5 5.4.6-4 3.7 1.1 5.4L12 16l-4.9 2.7 1.1-5.4-4-3.7 5.4-.6z" />,
  bag: (
    <>
      <path d="M5 8h14l-1 12H6z" />
      <path d="M9 8a3 3 0 0 1 6 0" />
    </>
  ),
  heart: <path d="M12 19s-7-4.4-7-9.5A4 4 0 0 1 12 7a4 4 0 0 1 7 2.5C19 14.6 12 19 12 19z" />,
  follow: (
    <>
      <circle cx="9" cy="8" r="3.5" />
      <path d="M3 19c.5-3.5 3-5.5 6-5.5s5.5 2 6 5.5M15 11l2 2 4-4" />
    </>
  ),
  message: <path d="M4 6h16v10H9l-5 4z" />,
  upload: <path d="M12 16V5M7.5 9.5 12 5l4.5 4.5M5 15v4h14v-4" />,
  code: (
    <>
      <rect x="5" y="5" width="6" height="6" rx="1" />
      <rect x="13" y="5" width="6" height="6" rx="1" />
      <rect x="5" y="13" width="6" height="6" rx="1" />
      <path d="M13 13h2v2h-2zM17 17h2v2h-2zM17 13h2M13 17v2" />
    </>
  ),
  ticket: (
    <>
      <path d="M4 8a2 2 0 0 0 0 4v4h16v-4a2 2 0 0 1 0-4V4H4z" transform="translate(0 2)" />
      <path d="M10 8v8" strokeDasharray="2 2" />
    </>
  ),
  help: (
    <>
      <circle cx="12" cy="12" r="8" />
      <path d="M9.8 9.5a2.3 2.3 0 1 1 3.3 2.1c-.7.4-1.1.9-1.1 1.7v.5M12 16.5v.1" />
    </>
  ),
  feedback: <path d="M5 5h14v10h-5l-4 4v-4H5zM9 9h6M9 12h3" />,
  apps: (
    <>
      <rect x="4" y="4" width="7" height="7" rx="2" />
      <rect x="13" y="4" width="7" height="7" rx="2" />
      <rect x="4" y="13" width="7" height="7" rx="2" />
      <rect x="13" y="13" width="7" height="7" rx="2" />
    </>
  ),
  moon: <path d="M19 14.5A7.5 7.5 0 0 1 9.5 5a7.5 7.5 0 1 0 9.5 9.5z" />,
  gear: (
    <>
      <circle cx="12" cy="12" r="3" />
      <path d="M12 3.5v2.2M12 18.3v2.2M3.5 12h2.2M18.3 12h2.2M6 6l1.6 1.6M16.4 16.4 18 18M6 18l1.6-1.6M16.4 7.6 18 6" />
    </>
  ),
  wallet: (
    <>
      <rect x="4" y="6" width="16" height="13" rx="2" />
      <path d="M16 12.5h2M4 9h16" />
    </>
  ),
  globe: (
    <>
      <circle cx="12" cy="12" r="8" />
      <path d="M4 12h16M12 4c2.5 2.5 2.5 13.5 0 16M12 4c-2.5 2.5-2.5 13.5 0 16" />
    </>
  ),
  info: (
    <>
      <circle cx="12" cy="12" r="8" />
      <path d="M12 11v5M12 8v.1" />
    </>
  ),
  // Account safety and settings (task ways).
  phone: (
    <>
      <rect x="7" y="3" width="10" height="18" rx="2.5" />
      <path d="M11 18h2" />
    </>
  ),
  lock: (
    <>
      <rect x="5" y="11" width="14" height="9" rx="2" />
      <path d="M8 11V8a4 4 0 0 1 8 0v3" />
    </>
  ),
  shield: <path d="M12 3l7 3v5c0 4.5-3 8-7 10-4-2-7-5.5-7-10V6z" />,
  trash: (
    <>
      <path d="M5 7h14M10 7V5h4v2M7 7l1 13h8l1-13" />
    </>
  ),
} satisfies Record<string, ReactNode>

export type GlyphName = keyof typeof paths

export function Glyph({ name, color }: { name: GlyphName; color: string }) {
  return (
    <span
      style={{
        display: 'inline-flex',
        alignItems: 'center',
        justifyContent: 'center',
        width: 29,
        height: 29,
        borderRadius: 7,
        background: color,
        color: '#fff',
        flex: 'none',
      }}
      aria-hidden="true"
    >
      <svg width="19" height="19" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.9" strokeLinecap="round" strokeLinejoin="round">
        {paths[name]}
      </svg>
    </span>
  )
}
