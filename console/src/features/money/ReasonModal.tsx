// A modal that asks for an operator's reason (refund, mark paid, reject):
// 1-200 characters, trimmed. The caller runs the mutation; the modal shows
// it pending.
import type { ReactNode } from 'react'
import { Form, Input, Modal } from 'antd'
import { useT } from '@/i18n'

export function ReasonModal(props: { open: boolean; title: string; intro?: ReactNode; pending: boolean; danger?: boolean; onOk: (reason: string) => void; onCancel: () => void }) {
  const t = useT()
  const [form] = Form.useForm<{ reason: string }>()
  return (
    <Modal
      open={props.open}
      title={props.title}
      onCancel={props.onCancel}
      // Cleared once closed, not when opened (moderation's ReasonModal says why).
      afterClose={() => form.resetFields()}
      onOk={() => form.submit()}
      okText={t('common.confirm')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: props.pending, danger: props.danger, ...{ 'data-testid': 'money-reason-ok' } }}
      destroyOnHidden
    >
      {props.intro}
      <Form<{ reason: string }> form={form} layout="vertical" requiredMark={false} onFinish={(v) => props.onOk(v.reason.trim())}>
        <Form.Item name="reason" label={t('money.reason')} rules={[{ required: true, whitespace: true, message: t('money.needReason') }, { max: 200 }]}>
          <Input.TextArea rows={3} maxLength={200} showCount data-testid="money-reason" />
        </Form.Item>
      </Form>
    </Modal>
  )
}
