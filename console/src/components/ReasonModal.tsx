// A modal that asks for an operator's reason (refund, mark paid, reject,
// remove, mute): 1-200 characters, trimmed, below whatever fields the
// caller adds (a mute's length). The caller runs the mutation; the modal
// shows it pending.
import type { ReactNode } from 'react'
import { Form, Input, Modal } from 'antd'
import { useT } from '@/i18n'

export function ReasonModal<V extends { reason: string } = { reason: string }>(props: {
  open: boolean
  title: string
  intro?: ReactNode
  pending: boolean
  danger?: boolean
  placeholder?: string
  // testId names the text area; its 确认 button is testId + "-ok".
  testId: string
  initialValues?: Partial<V>
  children?: ReactNode
  onOk: (v: V) => void
  onCancel: () => void
}) {
  const t = useT()
  const [form] = Form.useForm<V>()
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
      okButtonProps={{ loading: props.pending, danger: props.danger, ...{ 'data-testid': `${props.testId}-ok` } }}
      destroyOnHidden
    >
      {props.intro}
      <Form<V> form={form} layout="vertical" requiredMark={false} initialValues={props.initialValues} onFinish={(v) => props.onOk({ ...v, reason: v.reason.trim() })}>
        {props.children}
        <Form.Item name="reason" label={t('common.reason')} rules={[{ required: true, whitespace: true, message: t('common.needReason') }, { max: 200 }]}>
          <Input.TextArea rows={3} maxLength={200} showCount placeholder={props.placeholder} data-testid={props.testId} />
        </Form.Item>
      </Form>
    </Modal>
  )
}
