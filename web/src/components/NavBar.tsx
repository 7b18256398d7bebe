// The iOS navigation bar of every sub-page: back chevron on the left, the
// title centred, an optional action on the right. It sticks to the top and
// pads itself below the status bar (viewport-fit=cover).
import type { ReactNode } from 'react'
import { useNavigate } from 'react-router'
import { t } from '@/i18n'
import { canGoBack } from '@/lib/nav'
import { BackIcon } from './icons'
import styles from './NavBar.module.css'

interface Props {
  title: ReactNode
  // back is where the chevron goes when there is no history to pop (a page
  // opened from a link); false hides the chevron.
  back?: string | false
  right?: ReactNode
  transparent?: boolean
}


export function NavBar({ title, back = '/home', right, transparent }: Props) {
  const navigate = useNavigate()
  const goBack = () => {
    if (canGoBack()) navigate(-1)
    else if (back) navigate(back, { replace: true })
  }
  return (
    <header className={`${styles.bar} prima-chrome ${transparent ? styles.transparent : ''}`}>
      <div className={styles.inner}>
        <div className={styles.side}>
          {back !== false && (
            <button type="button" className={styles.back} onClick={goBack} aria-label={t('nav.back')} data-testid="nav-back">
              <BackIcon size={22} />
            </button>
          )}
        </div>
        <h1 className={styles.title}>{title}</h1>
        <div className={`${styles.side} ${styles.right}`}>{right}</div>
      </div>
    </header>
  )
}
