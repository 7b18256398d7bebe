// The top of every search page: back chevron and the search field, under
// the status bar, sticky, in the translucent iOS chrome.
import type { ReactNode } from 'react'
import { useNavigate } from 'react-router'
import { t } from '@/i18n'
import { BackIcon } from '@/components/icons'
import styles from './search.module.css'

// canGoBack: react-router's own history index (0: the first page of the visit).
function canGoBack(): boolean {
  const idx = (window.history.state as { idx?: number } | null)?.idx
  return typeof idx === 'number' && idx > 0
}

export function SearchHeader({ back, children, below }: { back: string; children: ReactNode; below?: ReactNode }) {
  const navigate = useNavigate()
  return (
    <header className={`${styles.header} prima-chrome`}>
      <div className={styles.top}>
        <button
          type="button"
          className={styles.back}
          aria-label={t('nav.back')}
          onClick={() => (canGoBack() ? navigate(-1) : navigate(back, { replace: true }))}
          data-testid="nav-back"
        >
          <BackIcon size={22} />
        </button>
        {children}
      </div>
      {below}
    </header>
  )
}
