// 资金 → 观影券: grant a user gold-video coupons (POST
// /api/admin/coupons/grant, step-up). One idempotency key per grant: a
// retry of the same grant (after a step-up, a lost answer) sends the same
// key and grants nothing more; changing the form or a success starts a new
// grant.
import { useRef, useState } from 'react'
import { Alert, Button, Card, Form, Input, InputNumber, Typography } from 'antd'
import { useT } from '@/i18n'
import { formatTime } from '@/lib/time'
import { Page } from '@/components/Page'
import { financeKeys, grantCoupons, type Granted } from './api'
import { newKey } from './money'
import { useSave } from '@/components/hooks'

interface FormValues {
  uid: number
  count: number
  days: number
  reason: string
}

const MAX_UID = Number.MAX_SAFE_INTEGER

export function CouponsPage() {
  const t = useT()
  const [form] = Form.useForm<FormValues>()
  const key = useRef(newKey('grant'))
  const [done, setDone] = useState<Granted | null>(null)
  const grant = useSave(grantCoupons, null, financeKeys.all, (g) => {
    setDone(g)
    key.current = newKey('grant')
    form.resetFields(['reason'])
  })
  const submit = (v: FormValues) => grant.mutate({ uid: v.uid, count: v.count, days: v.days, reason: v.reason.trim(), idempotencyKey: key.current })
  return (
    <Page title={t('finance.coupons.title')}>
      <Typography.Paragraph type="secondary">{t('finance.coupons.hint')}</Typography.Paragraph>
      <Card className="finance-card">
        <Form<FormValues>
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={submit}
          initialValues={{ count: 1, days: 30 }}
          onValuesChange={() => {
            key.current = newKey('grant')
          }}
        >
          <Form.Item name="uid" label={t('finance.coupons.uid')} rules={[{ required: true, message: t('finance.coupons.needUid') }]}>
            <InputNumber min={1} max={MAX_UID} precision={0} className="full" data-testid="coupon-uid" />
          </Form.Item>
          <Form.Item name="count" label={t('finance.coupons.count')} rules={[{ required: true, message: t('finance.needPositive') }]}>
            <InputNumber min={1} max={100} precision={0} className="full" data-testid="coupon-count" />
          </Form.Item>
          <Form.Item name="days" label={t('finance.coupons.days')} rules={[{ required: true, message: t('finance.needPositive') }]}>
            <InputNumber min={1} max={3650} precision={0} className="full" data-testid="coupon-days" />
          </Form.Item>
          <Form.Item name="reason" label={t('finance.coupons.reason')} rules={[{ required: true, whitespace: true, message: t('finance.coupons.needReason') }, { max: 200 }]}>
            <Input.TextArea rows={2} maxLength={200} showCount data-testid="coupon-reason" />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={grant.isPending} data-testid="coupon-grant">
            {t('finance.coupons.grant')}
          </Button>
        </Form>
      </Card>
      {done ? (
        <Alert
          className="finance-result"
          type="success"
          showIcon
          closable
          onClose={() => setDone(null)}
          title={t('finance.coupons.granted', { uid: done.uid, count: done.count, at: formatTime(done.expiresAt) })}
          data-testid="coupon-done"
        />
      ) : null}
    </Page>
  )
}
