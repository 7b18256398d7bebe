// Moderation's reason modal (reject, remove, mute): the reason is written
// for the author to read and, for a mute, comes with how long.
import { Form, Select } from 'antd'
import { ReasonModal } from '@/components/ReasonModal'
import { useT } from '@/i18n'

export interface ReasonValues {
  reason: string
  minutes?: number
}

export const MUTE_MINUTES = [60, 1440, 10080, 43200] as const

export function ModReasonModal(props: { open: boolean; title: string; pending: boolean; withMinutes?: boolean; onOk: (v: ReasonValues) => void; onCancel: () => void }) {
  const t = useT()
  return (
    <ReasonModal<ReasonValues>
      open={props.open}
      title={props.title}
      pending={props.pending}
      placeholder={t('mod.reasonPlaceholder')}
      testId="mod-reason"
      initialValues={{ minutes: 1440 }}
      onOk={props.onOk}
      onCancel={props.onCancel}
    >
      {props.withMinutes ? (
        <Form.Item name="minutes" label={t('mod.minutes')}>
          <Select options={MUTE_MINUTES.map((m) => ({ value: m, label: t(`mod.m${m}`) }))} data-testid="mod-minutes" />
        </Form.Item>
      ) : null}
    </ReasonModal>
  )
}
