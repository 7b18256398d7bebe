// A modal that asks for a reason (reject, remove, mute) and, for a mute,
// how long. The caller runs the mutation; the modal shows it pending.
import { Form, Input, Modal, Select } from 'antd'
import { useT } from '@/i18n'

export interface ReasonValues {
  reason: string
  minutes?: number
}

export const MUTE_MINUTES = [60, 1440, 10080, 43200] as const

export function ReasonModal(props: { open: boolean; title: string; pending: boolean; withMinutes?: boolean; onOk: (v: ReasonValues) => void; onCancel: () => void }) {
  const t = useT()
  const [form] = Form.useForm<ReasonValues>()
  return (
    <Modal
      open={props.open}
      title={props.title}
      onCancel={props.onCancel}
      // Cleared once closed, not when opened: a reset on opening ran after
      // a quick first 确认 and wiped the "reason needed" message it showed.
      afterClose={() => form.resetFields()}
      onOk={() => form.submit()}
      okText={t('common.confirm')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: props.pending, ...{ 'data-testid': 'mod-reason-ok' } }}
      destroyOnHidden
    >
      <Form<ReasonValues> form={form} layout="vertical" requiredMark={false} onFinish={(v) => props.onOk({ ...v, reason: v.reason.trim() })} initialValues={{ minutes: 1440 }}>
        {props.withMinutes ? (
          <Form.Item name="minutes" label={t('mod.minutes')}>
            <Select options={MUTE_MINUTES.map((m) => ({ value: m, label: t(`mod.m${m}`) }))} data-testid="mod-minutes" />
          </Form.Item>
        ) : null}
        <Form.Item name="reason" label={t('mod.reason')} rules={[{ required: true, whitespace: true, message: t('mod.needReason') }, { max: 200 }]}>
          <Input.TextArea rows={3} maxLength={200} showCount placeholder={t('mod.reasonPlaceholder')} data-testid="mod-reason" />
        </Form.Item>
      </Form>
    </Modal>
  )
}
