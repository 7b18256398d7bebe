// userbuy (/mine/userbuy): videos bought with coins. Purchases arrive with
// the wallet (a later issue); until then no purchase can exist, so the page
// says so plainly instead of calling an endpoint that is not there.
import { t } from '@/i18n'
import { NavBar } from '@/components/NavBar'
import { StateView } from '@/components/StateView'
import styles from './MineVideosPage.module.css'

export default function UserBuyPage() {
  return (
    <div className={styles.page} data-testid="mine-videos" data-kind="buy">
      <NavBar title={t('route.userbuy.title')} back="/mine" />
      <main className={styles.body}>
        <StateView kind="empty" title={t('mineVideos.emptyBuy')} message={t('mineVideos.buyHint')} />
      </main>
    </div>
  )
}
