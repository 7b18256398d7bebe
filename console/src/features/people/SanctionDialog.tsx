// The ban and mute dialog: a length (presets, custom minutes, forever for
// bans) and a reason, checked as the server checks them (sanction.ts).
import { useState } from 'react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Alert, App, Form, Input, InputNumber, Modal, Select, Typography } from 'antd'
import { useT, type MessageKey } from '@/i18n'
import { errorTip } from '@/components/ErrorState'
import { banUser, muteUser, peopleKeys } from './api'
import { PRESETS, REASON_MAX, minutesOf, reasonProblem, type Length } from './sanction'

export function SanctionDialog({ kind, uid, onClose }: { kind: 'ban' | 'mute'; uid: number | null; onClose: () => void }) {
  const t = useT()
  const qc = useQueryClient()
  const { message } = App.useApp()
  const [length, setLength] = useState<Length>(PRESETS[1])
  const [custom, setCustom] = useState('')
  const [reason, setReason] = useState('')
  const [tried, setTried] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const minutes = minutesOf(kind, length, custom)
  const lengthBad = typeof minutes === 'string' && minutes !== 'forever' ? minutes : null
  const reasonBad = reasonProblem(reason)
  const save = useMutation({
    mutationFn: (): Promise<unknown> => {
      const body = { uid: uid ?? 0, minutes: typeof minutes === 'number' ? minutes : 0, forever: minutes === 'forever', reason: reason.trim() }
      return kind === 'ban' ? banUser(body) : muteUser(body)
    },
    onSuccess: () => {
      void message.success(t(kind === 'ban' ? 'people.ban.done' : 'people.mute.done'))
      void qc.invalidateQueries({ queryKey: peopleKeys.all })
      onClose()
    },
    onError: (e) => setError(errorTip(e, t)),
  })
  const reset = () => {
    setLength(PRESETS[1])
    setCustom('')
    setReason('')
    setTried(false)
    setError(null)
  }
  const submit = () => {
    setTried(true)
    setError(null)
    if (lengthBad || reasonBad) return
    save.mutate()
  }
  const options = [
    ...PRESETS.filter((m) => kind === 'ban' || m <= 525_600).map((m) => ({ value: m as Length, label: t(`people.length.${m}` as MessageKey) })),
    ...(kind === 'ban' ? [{ value: 'forever' as Length, label: t('people.length.forever') }] : []),
    { value: 'custom' as Length, label: t('people.length.custom') },
  ]
  return (
    <Modal
      open={uid !== null}
      title={t(kind === 'ban' ? 'people.ban.title' : 'people.mute.title', { uid: uid ?? '' })}
      onCancel={onClose}
      afterOpenChange={(o) => !o && reset()}
      destroyOnHidden
      okText={t(kind === 'ban' ? 'people.ban.open' : 'people.mute.open')}
      cancelText={t('common.cancel')}
      okButtonProps={{ danger: true, loading: save.isPending, ...{ 'data-testid': `${kind}-submit` } }}
      onOk={submit}
    >
      <div className="stack">
        <Typography.Text type="secondary">{t(kind === 'ban' ? 'people.ban.explain' : 'people.mute.explain')}</Typography.Text>
        {error ? <Alert type="error" showIcon title={error} data-testid={`${kind}-error`} /> : null}
        <Form layout="vertical" requiredMark={false} onFinish={submit}>
          <Form.Item label={t('people.length')} validateStatus={tried && lengthBad ? 'error' : undefined} help={tried && lengthBad ? t(`people.problem.${lengthBad}` as MessageKey) : undefined}>
            <Select<Length> className="full" value={length} options={options} onChange={setLength} data-testid={`${kind}-length`} />
          </Form.Item>
          {length === 'custom' ? (
            <Form.Item label={t('people.minutes')}>
              <InputNumber<string> className="full" stringMode min="1" precision={0} value={custom} onChange={(v) => setCustom(v ?? '')} data-testid={`${kind}-minutes`} />
            </Form.Item>
          ) : null}
          <Form.Item label={t('people.reason')} validateStatus={tried && reasonBad ? 'error' : undefined} help={tried && reasonBad ? t(`people.problem.${reasonBad}` as MessageKey) : undefined}>
            <Input value={reason} maxLength={REASON_MAX} showCount onChange={(e) => setReason(e.target.value)} placeholder={t('people.reason.placeholder')} data-testid={`${kind}-reason`} />
          </Form.Item>
        </Form>
      </div>
    </Modal>
  )
}
