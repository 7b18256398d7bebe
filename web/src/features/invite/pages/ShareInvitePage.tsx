// shareyaoqing (/mine/shareyaoqing): my invite code, the link as text and
// as a QR code (long-press to save), copy and the system share sheet, the
// counts, and the rules the operator set (or the built-in ones).
import { useEffect, useState } from 'react'
import { Link } from 'react-router'
import QRCode from 'qrcode'
import { t } from '@/i18n'
import { groupCode, inviteLink } from '@/lib/invite'
import { toast } from '@/lib/toast'
import { NavBar } from '@/components/NavBar'
import { StateView } from '@/components/StateView'
import { useUserStore } from '@/stores/user'
import { useInviteInfo, type InviteInfo } from '@/features/invite/api'
import { copyText } from '@/features/invite/copy'
import styles from '@/features/invite/invite.module.css'

function useQR(link: string | undefined) {
  const [url, setUrl] = useState<string | null>(null)
  useEffect(() => {
    if (!link) return
    let live = true
    QRCode.toDataURL(link, { margin: 1, width: 400, errorCorrectionLevel: 'M' })
      .then((u) => live && setUrl(u))
      .catch(() => live && setUrl(null))
    return () => {
      live = false
    }
  }, [link])
  return url
}

export function inviteRules(info: InviteInfo): string[] {
  if (info.rules.length > 0) return info.rules
  const out = [t('inv.ruleDefault1')]
  if (info.rewardCoins > 0) out.push(t('inv.ruleDefault2', { coins: info.rewardCoins }))
  out.push(t('inv.ruleDefault3', { days: info.windowDays }))
  return out
}

function Share({ info }: { info: InviteInfo }) {
  const link = inviteLink(info.link, window.location.origin)
  const qr = useQR(link)
  const copy = async (text: string) => {
    if (await copyText(text)) toast.success(t('inv.copied'))
    else toast.fail(t('inv.copyFailed'))
  }
  const share = async () => {
    const text = t('inv.shareText', { code: info.code })
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title: t('inv.heroTitle'), text, url: link })
        return
      } catch (e) {
        if (e instanceof DOMException && e.name === 'AbortError') return
      }
    }
    await copy(`${text} ${link}`)
  }
  return (
    <>
      <section className={styles.hero}>
        <h2 className={styles.heroTitle}>{t('inv.heroTitle')}</h2>
        <p className={styles.heroSub}>{info.rewardCoins > 0 ? t('inv.heroSub', { coins: info.rewardCoins }) : t('inv.heroSubOff')}</p>
      </section>
      <section className={`${styles.card} ${styles.center}`}>
        <p className={styles.label}>{t('inv.myCode')}</p>
        <p className={styles.code} data-testid="invite-code" data-code={info.code}>
          {groupCode(info.code)}
        </p>
        <div className={styles.qr}>{qr ? <img src={qr} alt={t('inv.qrAlt')} data-testid="invite-qr" /> : <span className="prima-skeleton" />}</div>
        <p className={styles.hint}>{t('inv.longPress')}</p>
        <p className={styles.link} data-testid="invite-link">
          {link}
        </p>
        <div className={styles.actions}>
          <button type="button" className={styles.secondary} onClick={() => void copy(info.code)} data-testid="invite-copy-code">
            {t('inv.copyCode')}
          </button>
          <button type="button" className={styles.secondary} onClick={() => void copy(link)} data-testid="invite-copy-link">
            {t('inv.copyLink')}
          </button>
        </div>
        <div className={styles.actions}>
          <button type="button" className={styles.primary} onClick={() => void share()} data-testid="invite-share">
            {t('inv.share')}
          </button>
        </div>
      </section>
      <Link to="/mine/pushdata" className={`${styles.card} ${styles.stats}`} data-testid="invite-stats">
        <div>
          <p className={styles.statValue}>{info.inviteCount}</p>
          <p className={styles.label}>{t('inv.invited')}</p>
        </div>
        <div>
          <p className={styles.statValue}>{info.registeredCount}</p>
          <p className={styles.label}>{t('inv.registered')}</p>
        </div>
        <div>
          <p className={styles.statValue}>{info.rewardedCoins}</p>
          <p className={styles.label}>{t('inv.coins')}</p>
        </div>
      </Link>
      <section className={styles.card}>
        <p className={styles.name}>{t('inv.rules')}</p>
        <ol className={styles.rules}>
          {inviteRules(info).map((r, i) => (
            <li key={i}>{r}</li>
          ))}
        </ol>
      </section>
    </>
  )
}

export default function ShareInvitePage() {
  const token = useUserStore((s) => s.token)
  const q = useInviteInfo(token)
  let body
  if (token == null) body = <StateView kind="empty" title={t('inv.signIn')} />
  else if (q.isPending) body = <StateView kind="loading" />
  else if (q.isError) body = <StateView kind="error" error={q.error} onRetry={() => void q.refetch()} />
  else body = <Share info={q.data} />
  return (
    <div className={styles.page} data-testid="shareyaoqing">
      <NavBar title={t('route.shareyaoqing.title')} back="/mine" />
      <main className={styles.body}>{body}</main>
    </div>
  )
}
