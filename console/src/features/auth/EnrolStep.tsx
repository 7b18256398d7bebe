// Binding an authenticator on the first sign-in: the QR code of the
// otpauth URL (drawn in the browser; the qrcode package loads only here),
// the secret as text for typing in, and the first code to prove it works.
import { useEffect, useState } from 'react'
import { Alert, Button, Card, Form, Input, Spin, Typography } from 'antd'
import { useT } from '@/i18n'
import { ApiError } from '@/lib/api'
import { enrol, type Enrolment, type SignedIn } from '@/lib/session'
import { errorTip } from '@/components/ErrorState'

// groups of four, as authenticator apps show a key to type
const grouped = (s: string) => s.replace(/(.{4})(?=.)/g, '$1 ')

function useQR(text: string): { src: string | null; failed: boolean } {
  const [state, setState] = useState<{ src: string | null; failed: boolean }>({ src: null, failed: false })
  useEffect(() => {
    let live = true
    import('qrcode')
      .then((q) => q.toDataURL(text, { errorCorrectionLevel: 'M', margin: 2, width: 400 }))
      .then(
        (src) => live && setState({ src, failed: false }),
        () => live && setState({ src: null, failed: true }),
      )
    return () => {
      live = false
    }
  }, [text])
  return state
}

export function EnrolStep(props: { account: string; enrol: Enrolment; onDone: (s: SignedIn, codes: string[]) => void; onRestart: (tip: string) => void }) {
  const t = useT()
  const qr = useQR(props.enrol.otpauthURL)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [form] = Form.useForm<{ code: string }>()

  const submit = async ({ code }: { code: string }) => {
    const c = code.replace(/\s/g, '')
    if (!/^\d{6}$/.test(c)) {
      setError(t('enrol.badCode'))
      return
    }
    setBusy(true)
    setError(null)
    try {
      const r = await enrol(props.enrol.ticket, c)
      props.onDone({ token: r.token, expiresAt: r.expiresAt, role: r.role }, r.recoveryCodes)
    } catch (e) {
      // A ticket that expired or was used: the whole sign-in starts again.
      if (e instanceof ApiError && e.status === 401) props.onRestart(errorTip(e, t))
      else {
        setError(errorTip(e, t))
        form.setFieldValue('code', '')
      }
    } finally {
      setBusy(false)
    }
  }

  return (
    <Card className="auth-card" data-testid="enrol">
      <Typography.Title level={3} className="auth-title">
        {t('enrol.title')}
      </Typography.Title>
      <Typography.Paragraph>{t('enrol.intro')}</Typography.Paragraph>
      {qr.src ? (
        <img className="qr" src={qr.src} alt={t('enrol.qrAlt')} data-testid="enrol-qr" />
      ) : (
        <div className="qr-box">{qr.failed ? <Typography.Text type="warning">{t('enrol.qrFailed')}</Typography.Text> : <Spin />}</div>
      )}
      <Typography.Paragraph type="secondary">{t('enrol.secret')}</Typography.Paragraph>
      <Typography.Text className="secret mono" copyable={{ text: props.enrol.secret }} data-testid="enrol-secret">
        {grouped(props.enrol.secret)}
      </Typography.Text>
      {error ? <Alert type="error" showIcon title={error} className="auth-alert" data-testid="enrol-error" /> : null}
      <Form form={form} layout="vertical" requiredMark={false} onFinish={(v) => void submit(v)} disabled={busy}>
        <Form.Item name="code" label={t('enrol.code')} rules={[{ required: true, message: t('enrol.badCode') }]}>
          <Input autoComplete="one-time-code" inputMode="numeric" maxLength={8} placeholder="123456" autoFocus data-testid="enrol-code" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={busy} data-testid="enrol-submit">
          {t('enrol.submit')}
        </Button>
      </Form>
      <Button type="link" block onClick={() => props.onRestart('')}>
        {t('enrol.restart')}
      </Button>
    </Card>
  )
}
