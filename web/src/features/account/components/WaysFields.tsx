// The fields the ways-in pages share: a phone number, an SMS code with its
// send button, and a new password with its confirmation. Bind phone,
// forgotten password and account safety ask for them in the same words
// and with the same input hints, so they are written once here.
import { t } from '@/i18n'
import type { CodePurpose } from '@/features/account/api/sms-captcha'
import { CodeButton } from '@/features/account/components/CodeButton'
import { Field } from '@/features/account/components/Field'
import { codeInput, type checkMobile } from '@/features/account/phone'

export function MobileField({ value, onChange, error, testid }: { value: string; onChange: (v: string) => void; error: string | null; testid: string }) {
  return (
    <Field
      label={t('ways.mobile')}
      placeholder={t('ways.mobilePh')}
      value={value}
      onChange={onChange}
      error={error}
      type="tel"
      inputMode="tel"
      autoComplete="tel-national"
      maxLength={20}
      testid={testid}
    />
  )
}

// CodeField is the SMS code for purpose, sent to mobile; its testids are
// `${prefix}-code` and `${prefix}-send`.
export function CodeField({
  mobile,
  purpose,
  value,
  onChange,
  error,
  prefix,
  onMobileError,
  onServerError,
}: {
  mobile: string
  purpose: CodePurpose
  value: string
  onChange: (v: string) => void
  error: string | null
  prefix: string
  onMobileError: (k: ReturnType<typeof checkMobile>) => void
  onServerError: (tip: string | null) => void
}) {
  return (
    <Field
      label={t('ways.code')}
      placeholder={t('ways.codePh')}
      value={value}
      onChange={(v) => onChange(codeInput(v))}
      error={error}
      inputMode="numeric"
      autoComplete="one-time-code"
      testid={`${prefix}-code`}
      after={<CodeButton mobile={mobile} purpose={purpose} onMobileError={onMobileError} onError={onServerError} testid={`${prefix}-send`} />}
    />
  )
}

// NewPasswordFields is a new password and the same again.
export function NewPasswordFields({
  label,
  pwd,
  onPwd,
  again,
  onAgain,
  pwdError,
  againError,
  testids,
}: {
  label: string
  pwd: string
  onPwd: (v: string) => void
  again: string
  onAgain: (v: string) => void
  pwdError: string | null
  againError: string | null
  testids: [pwd: string, again: string]
}) {
  return (
    <>
      <Field
        label={label}
        placeholder={t('ways.forget.pwdPh')}
        type="password"
        value={pwd}
        onChange={onPwd}
        error={pwdError}
        autoComplete="new-password"
        maxLength={32}
        testid={testids[0]}
      />
      <Field
        label={t('ways.forget.confirm')}
        placeholder={t('ways.forget.confirmPh')}
        type="password"
        value={again}
        onChange={onAgain}
        error={againError}
        autoComplete="new-password"
        maxLength={32}
        testid={testids[1]}
      />
    </>
  )
}
