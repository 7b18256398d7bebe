// accountcode (/mine/accountcode): the account certificate as a picture the
// user saves to Photos (long-press the picture in iOS Safari, the share
// sheet where the browser has one, else a PNG download), the account id,
// what it is for and a reset that revokes every saved copy.
import { useEffect, useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { t } from '@/i18n'
import { confirm } from '@/lib/dialog'
import { toast } from '@/lib/toast'
import { NavBar } from '@/components/NavBar'
import { Spinner } from '@/components/Spinner'
import { StateView } from '@/components/StateView'
import { useUserStore } from '@/stores/user'
import { certificateKey, resetCertificate, useCertificate, type Certificate } from '@/features/account/api/certificate'
import { certificateDate, certificateFileName, certificateLink } from '@/features/account/certificate'
import { dataURLToFile, renderCertificatePicture } from '@/features/account/certImage'
import styles from './AccountCodePage.module.css'

function usePicture(cert: Certificate | undefined) {
  const [pic, setPic] = useState<{ qrCnt: string; url: string } | null>(null)
  const [failed, setFailed] = useState(false)
  useEffect(() => {
    if (!cert) return
    let live = true
    setFailed(false)
    renderCertificatePicture(certificateLink(window.location.origin, cert), {
      title: t('cert.title'),
      idLine: t('cert.idLine', { uid: cert.uid }),
      hint: t('cert.pictureHint'),
      issued: t('cert.issued', { date: certificateDate(cert.createdAt) }),
    })
      .then((url) => live && setPic({ qrCnt: cert.qrCnt, url }))
      .catch(() => live && setFailed(true))
    return () => {
      live = false
    }
  }, [cert])
  // A picture of the previous credential never shows after a reset.
  return { url: pic && cert && pic.qrCnt === cert.qrCnt ? pic.url : null, failed }
}

export default function AccountCodePage() {
  const token = useUserStore((s) => s.token)
  const isGuest = useUserStore((s) => s.user?.isGuest ?? true)
  const queryClient = useQueryClient()
  const q = useCertificate(token)
  const { url, failed } = usePicture(q.data)
  const [resetting, setResetting] = useState(false)

  const save = async () => {
    if (!url || !q.data) return
    const name = certificateFileName(q.data.uid)
    // The share sheet offers "Save Image" (to Photos) on iPhone; where it
    // cannot share files, the PNG downloads.
    try {
      const file = dataURLToFile(url, name)
      if (typeof navigator.canShare === 'function' && navigator.canShare({ files: [file] })) {
        await navigator.share({ files: [file] })
        return
      }
    } catch (e) {
      if (e instanceof DOMException && e.name === 'AbortError') return
    }
    const a = document.createElement('a')
    a.href = url
    a.download = name
    document.body.appendChild(a)
    a.click()
    a.remove()
  }

  const confirmReset = async () => {
    if (resetting) return
    const ok = await confirm({ title: t('cert.resetConfirm'), content: t('cert.resetConfirmHint'), confirmText: t('cert.reset') })
    if (!ok) return
    setResetting(true)
    try {
      const next = await resetCertificate()
      queryClient.setQueryData(certificateKey(token), next)
      toast.success(t('cert.resetDone'))
    } catch {
      // The API client has shown the server's tip.
    } finally {
      setResetting(false)
    }
  }

  let body
  if (token == null) body = <StateView kind="empty" title={t('cert.signIn')} />
  else if (q.isPending) body = <StateView kind="loading" />
  else if (q.isError) body = <StateView kind="error" error={q.error} onRetry={() => q.refetch()} />
  else {
    const cert = q.data
    body = (
      <>
        <section className={styles.card}>
          <div className={styles.picture}>
            {url ? (
              <img src={url} alt={t('cert.alt', { uid: cert.uid })} className={styles.img} data-testid="cert-picture" data-uid={cert.uid} />
            ) : failed ? (
              <span className={styles.fail}>{t('cert.renderFailed')}</span>
            ) : (
              <span className={`${styles.placeholder} prima-skeleton`} />
            )}
          </div>
          <p className={styles.uid} data-testid="cert-uid">
            {t('cert.idLine', { uid: cert.uid })}
          </p>
          <p className={styles.hint}>{t('cert.longPress')}</p>
          <div className={styles.actions}>
            <button type="button" className={styles.primary} onClick={save} disabled={!url} data-testid="cert-save">
              {t('cert.save')}
            </button>
            {url && (
              <a className={styles.link} href={url} download={certificateFileName(cert.uid)} data-testid="cert-download">
                {t('cert.download')}
              </a>
            )}
          </div>
        </section>
        <p className={styles.intro}>{t(isGuest ? 'cert.intro' : 'cert.introRegistered')}</p>
        <p className={styles.warn}>{t('cert.safety')}</p>
        <button type="button" className={styles.reset} onClick={confirmReset} disabled={resetting} data-testid="cert-reset">
          {resetting && <Spinner size={16} />}
          {t('cert.reset')}
        </button>
      </>
    )
  }

  return (
    <div className={styles.page} data-testid="accountcode">
      <NavBar title={t('route.accountcode.title')} back="/mine" />
      <main className={styles.body}>{body}</main>
    </div>
  )
}
