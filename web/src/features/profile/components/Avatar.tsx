// A person's round portrait, or a drawn placeholder when they have none.
import { LazyImage } from '@/components/LazyImage'
import styles from './ui.module.css'

export function PersonAvatar({ src, size = 44, eager }: { src?: string | null; size?: number; eager?: boolean }) {
  return (
    <span className={styles.avatar} style={{ width: size, height: size }}>
      {src ? (
        <LazyImage src={src} alt="" eager={eager} className={styles.fill} />
      ) : (
        <svg viewBox="0 0 64 64" width={size} height={size} aria-hidden="true">
          <rect width="64" height="64" fill="currentColor" opacity=".14" />
          <circle cx="32" cy="25" r="11" fill="currentColor" opacity=".45" />
          <path d="M12 58c2-11 10-17 20-17s18 6 20 17z" fill="currentColor" opacity=".45" />
        </svg>
      )}
    </span>
  )
}
