// The send-code button beside a mobile field: checks the number, asks the
// server for a code and counts down the resend wait. A refusal (a 429 says
// to wait, a 503 that codes are paused) is handed to onError to show inline.
import { useEffect, useState } from 'react'
import { t } from '@/i18n'
import { ApiError } from '@/lib/api'
import { toast } from '@/lib/toast'
import { sendCode, type CodePurpose } from '@/features/account/api/sms-captcha'
import { checkMobile, normalizeMobile, resendLeft } from '@/features/account/phone'
import styles from './Ways.module.css'

interface Props {
  mobile: string
  purpose: CodePurpose
  onMobileError: (key: ReturnType<typeof checkMobile>) => void
  onError: (tip: string | null) => void
  testid: string
}

export function CodeButton({ mobile, purpose, onMobileError, onError, testid }: Props) {
  const [sentAt, setSentAt] = useState<number | null>(null)
  const [wait, setWait] = useState(60)
  const [now, setNow] = useState(() => Date.now())
  const [busy, setBusy] = useState(false)
  const left = resendLeft(sentAt, now, wait)
  const ticking = left > 0

  useEffect(() => {
    if (!ticking) return
    const id = window.setInterval(() => setNow(Date.now()), 1000)
    return () => window.clearInterval(id)
  }, [ticking])

  const send = async () => {
    if (busy || left > 0) return
    const problem = checkMobile(mobile)
    onMobileError(problem)
    if (problem) return
    setBusy(true)
    onError(null)
    try {
      const r = await sendCode(normalizeMobile(mobile), purpose)
      setWait(r.resendIn || 60)
      setSentAt(Date.now())
      setNow(Date.now())
      toast.success(t('ways.codeSent'))
    } catch (err) {
      onError(err instanceof ApiError ? err.tip : t('net.failed'))
    } finally {
      setBusy(false)
    }
  }

  return (
    <button type="button" className={`${styles.codeBtn} prima-hit`} onClick={() => void send()} disabled={busy || left > 0} data-testid={testid}>
      {left > 0 ? t('ways.resend', { s: left }) : t('ways.sendCode')}
    </button>
  )
}
