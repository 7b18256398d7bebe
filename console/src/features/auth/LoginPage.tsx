// /admin/login: account, password and a second factor (a TOTP code, or a
// recovery code behind a link). An operator without TOTP yet is answered
// 428 with an enrolment: the next step shows its QR code (drawn here, from
// the otpauth URL, by the lazily loaded qrcode package) and the secret as
// text, takes a code, and then shows the ten recovery codes once, with
// copy, download and an "I saved them" confirmation before the console opens.
import { useState } from 'react'
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router'
import { Alert, Button, Card, Form, Input, Typography } from 'antd'
import { TranslationOutlined } from '@ant-design/icons'
import { useQueryClient } from '@tanstack/react-query'
import { setLang, useLang, useT } from '@/i18n'
import { normalizeCode } from '@/lib/codes'
import { safeNext } from '@/lib/nav'
import { signIn, type Enrolment, type SignedIn } from '@/lib/session'
import { readSession, saveSession } from '@/lib/session-store'
import { errorTip } from '@/components/ErrorState'
import { EnrolStep } from './EnrolStep'
import { RecoveryCodes } from './RecoveryCodes'

type Step = { kind: 'sign' } | { kind: 'enrol'; account: string; enrol: Enrolment } | { kind: 'codes'; account: string; session: SignedIn; codes: string[] }

interface Fields {
  account: string
  passWord: string
  code: string
}

export function LoginPage() {
  const t = useT()
  const lang = useLang()
  const nav = useNavigate()
  const qc = useQueryClient()
  const [params] = useSearchParams()
  const loc = useLocation()
  const notice = (loc.state as { notice?: string } | null)?.notice
  const [step, setStep] = useState<Step>({ kind: 'sign' })
  const [recovery, setRecovery] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [form] = Form.useForm<Fields>()
  // Signed in already (another tab, the back button): straight on. A token
  // the server no longer takes comes back here through the 401 handler,
  // which forgets it first.
  const [signedIn] = useState(() => readSession() !== null)

  const enter = (s: SignedIn) => {
    saveSession({ token: s.token, expiresAt: s.expiresAt })
    qc.clear()
    nav(safeNext(params.get('next')), { replace: true })
  }

  const submit = async (f: Fields) => {
    // An operator who has not bound an authenticator yet has no code: the
    // field may be left empty, and the server answers with the enrolment.
    const typed = (f.code ?? '').trim()
    const code = typed === '' ? { code: '' } : normalizeCode(typed)
    if (!code) {
      form.setFields([{ name: 'code', errors: [t('login.badCode')] }])
      return
    }
    setBusy(true)
    setError(null)
    try {
      const r = await signIn(f.account.trim(), f.passWord, code.code)
      if (r.kind === 'in') enter(r.session)
      else setStep({ kind: 'enrol', account: f.account.trim(), enrol: r.enrol })
    } catch (e) {
      setError(errorTip(e, t))
      form.setFieldValue('code', '')
    } finally {
      setBusy(false)
    }
  }

  const langButton = (
    <Button className="auth-lang" type="text" icon={<TranslationOutlined />} onClick={() => setLang(lang === 'en' ? 'zh-CN' : 'en')}>
      {t('header.lang')}
    </Button>
  )

  if (signedIn && step.kind === 'sign') return <Navigate to={safeNext(params.get('next'))} replace />

  if (step.kind === 'enrol')
    return (
      <main className="auth">
        {langButton}
        <EnrolStep
          account={step.account}
          enrol={step.enrol}
          onDone={(session, codes) => setStep({ kind: 'codes', account: step.account, session, codes })}
          onRestart={(tip) => {
            setStep({ kind: 'sign' })
            setError(tip)
          }}
        />
      </main>
    )

  if (step.kind === 'codes')
    return (
      <main className="auth">
        {langButton}
        <RecoveryCodes account={step.account} codes={step.codes} onContinue={() => enter(step.session)} />
      </main>
    )

  return (
    <main className="auth">
      {langButton}
      <Card className="auth-card">
        <Typography.Title level={3} className="auth-title">
          {t('login.title')}
        </Typography.Title>
        {notice === 'expired' && !error ? <Alert type="warning" showIcon title={t('login.expired')} className="auth-alert" /> : null}
        {notice === 'signedOut' && !error ? <Alert type="success" showIcon title={t('login.signedOut')} className="auth-alert" /> : null}
        {error ? <Alert type="error" showIcon title={error} data-testid="login-error" className="auth-alert" /> : null}
        <Form<Fields> form={form} layout="vertical" requiredMark={false} onFinish={(f) => void submit(f)} disabled={busy} className="auth-form">
          <Form.Item name="account" label={t('login.account')} rules={[{ required: true, whitespace: true, message: t('login.needAccount') }]}>
            <Input autoComplete="username" autoFocus data-testid="login-account" />
          </Form.Item>
          <Form.Item name="passWord" label={t('login.password')} rules={[{ required: true, message: t('login.needPassword') }]}>
            <Input.Password autoComplete="current-password" data-testid="login-password" />
          </Form.Item>
          <Form.Item
            name="code"
            label={recovery ? t('login.recovery') : t('login.code')}
            extra={recovery ? t('login.recoveryHint') : t('login.codeHint')}
          >
            <Input
              autoComplete="one-time-code"
              inputMode={recovery ? 'text' : 'numeric'}
              maxLength={recovery ? 12 : 8}
              placeholder={recovery ? 'abcd-1234' : '123456'}
              data-testid="login-code"
            />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={busy} data-testid="login-submit">
            {t('login.submit')}
          </Button>
        </Form>
        <Button type="link" block className="auth-switch" onClick={() => setRecovery((r) => !r)} data-testid="login-recovery">
          {recovery ? t('login.useTotp') : t('login.useRecovery')}
        </Button>
        {recovery ? (
          <Typography.Paragraph type="secondary" className="auth-note">
            {t('login.lostPhone')}
          </Typography.Paragraph>
        ) : null}
      </Card>
    </main>
  )
}
