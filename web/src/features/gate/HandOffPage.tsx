// Shown instead of the app when the operator's platform gate keeps this
// device out (DESIGN departure 1): a QR code that opens the app on a phone.
// This module and the QR encoder load only when the gate says so.
import { useEffect, useState } from 'react'
import QRCode from 'qrcode'
import { Logo } from '@/components/Logo'
import { t } from '@/i18n'
import { useAppName } from '@/stores/config'
import { qrLevel } from '@/lib/qr'
import styles from './HandOffPage.module.css'

export default function HandOffPage({ url }: { url: string }) {
  const [img, setImg] = useState<string | null>(null)
  const [failed, setFailed] = useState(false)
  const appName = useAppName()

  useEffect(() => {
    let live = true
    QRCode.toDataURL(url, { errorCorrectionLevel: qrLevel('M'), margin: 1, width: 480 })
      .then((d) => live && setImg(d))
      .catch(() => live && setFailed(true))
    return () => {
      live = false
    }
  }, [url])

  return (
    <main className={styles.page} data-testid="gate-handoff">
      <div className={styles.card}>
        <Logo className={styles.logo} size={56} />
        <h1 className={styles.title}>{t('gate.title')}</h1>
        <p className={styles.desc}>{t('gate.desc', { name: appName })}</p>
        <div className={styles.qr}>
          {img ? (
            <img src={img} alt={t('gate.qrAlt')} width="240" height="240" data-testid="gate-qr" />
          ) : failed ? (
            <span className={styles.fail}>{t('gate.qrFailed')}</span>
          ) : (
            <span className={`${styles.placeholder} prima-skeleton`} />
          )}
        </div>
        <p className={styles.url} data-testid="gate-url">
          {url}
        </p>
        <p className={styles.hint}>{t('gate.hint')}</p>
      </div>
    </main>
  )
}
