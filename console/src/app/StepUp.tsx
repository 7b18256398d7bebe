// The step-up prompt. When a call answers 403 {stepUp: true} the client
// (lib/client.ts) asks here: a modal takes a TOTP or recovery code, posts it
// to session/stepup and, once it is taken, lets the client send the call
// again. Cancel gives the call its 403 back. A wrong code keeps the modal
// open with the server's words.
import { useEffect, useRef, useState } from 'react'
import { Alert, Button, Form, Input, Modal, Typography } from 'antd'
import { useQueryClient } from '@tanstack/react-query'
import { useT } from '@/i18n'
import { setStepUpHandler } from '@/lib/client'
import { normalizeCode } from '@/lib/codes'
import { sessionKeys, stepUp } from '@/lib/session'
import { errorTip } from '@/components/ErrorState'

export function StepUpHost() {
  const t = useT()
  const qc = useQueryClient()
  const [open, setOpen] = useState(false)
  const [code, setCode] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const resolver = useRef<((ok: boolean) => void) | null>(null)

  useEffect(() => {
    setStepUpHandler(
      () =>
        new Promise<boolean>((resolve) => {
          resolver.current = resolve
          setCode('')
          setError(null)
          setOpen(true)
        }),
    )
    return () => setStepUpHandler(null)
  }, [])

  const finish = (ok: boolean) => {
    setOpen(false)
    resolver.current?.(ok)
    resolver.current = null
  }

  const submit = async () => {
    if (busy) return
    const c = normalizeCode(code)
    if (!c) {
      setError(t('login.badCode'))
      return
    }
    setBusy(true)
    try {
      await stepUp(c.code)
      void qc.invalidateQueries({ queryKey: sessionKeys.all })
      finish(true)
    } catch (e) {
      setError(errorTip(e, t))
    } finally {
      setBusy(false)
    }
  }

  return (
    <Modal
      open={open}
      title={t('stepup.title')}
      onCancel={() => finish(false)}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={() => finish(false)}>
          {t('common.cancel')}
        </Button>,
        <Button key="ok" type="primary" loading={busy} onClick={() => void submit()} data-testid="stepup-submit">
          {t('stepup.submit')}
        </Button>,
      ]}
    >
      <Typography.Paragraph>{t('stepup.intro')}</Typography.Paragraph>
      {/* Enter in the one field submits the form (and only the form: no
          onPressEnter too, or a code would be sent twice and refused as used). */}
      <Form layout="vertical" onFinish={() => void submit()}>
        <Form.Item label={t('login.code')} validateStatus={error ? 'error' : undefined} help={error ?? undefined}>
          <Input
            autoFocus
            value={code}
            onChange={(e) => setCode(e.target.value)}
            inputMode="text"
            autoComplete="one-time-code"
            maxLength={12}
            placeholder="123456"
            data-testid="stepup-code"
          />
        </Form.Item>
      </Form>
      {error ? null : <Alert type="info" showIcon title={t('login.recoveryHint')} />}
    </Modal>
  )
}
