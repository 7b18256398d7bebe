// 资金 → 佣金与创作者分成: the commission levels (member and promoter
// rates side by side, 1 to 3 levels), the settle days, the creator share
// and when an invitation's sign-up coins are paid. Rates are typed in
// percent and sent in basis points (POST /api/admin/commission/config,
// step-up).
import { useEffect } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Button, Card, Form, InputNumber, Radio, Space, Spin, Typography } from 'antd'
import { MinusOutlined, PlusOutlined } from '@ant-design/icons'
import { useT } from '@/i18n'
import { Page } from '@/components/Page'
import { ErrorState } from '@/components/ErrorState'
import { financeKeys, getCommission, saveCommission } from './api'
import { fromForm, toForm, type CommissionForm } from './logic'
import { useSave } from '@/components/hooks'

const MAX_LEVELS = 3 // earnings.MaxLevels
const MAX_LEVEL_PCT = 50

export function CommissionPage() {
  const t = useT()
  const q = useQuery({ queryKey: financeKeys.commission, queryFn: getCommission })
  const [form] = Form.useForm<CommissionForm>()
  useEffect(() => {
    if (q.data) form.setFieldsValue(toForm(q.data))
  }, [q.data, form])
  const save = useSave(saveCommission, 'finance.saved', financeKeys.commission)
  if (q.isError) return <ErrorState error={q.error} onRetry={() => void q.refetch()} />
  const rate = { required: true, message: t('finance.commission.needRate') }
  return (
    <Page
      title={t('finance.nav.commission')}
      extra={
        <Button type="primary" loading={save.isPending} disabled={q.isPending} onClick={() => form.submit()} data-testid="commission-save">
          {t('finance.save')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('finance.commission.hint')}</Typography.Paragraph>
      {q.isPending ? (
        <Spin />
      ) : (
        <Card className="finance-card">
          <Form<CommissionForm> form={form} layout="vertical" requiredMark={false} onFinish={(v) => save.mutate(fromForm(v))}>
            <Form.List name="rows">
              {(fields, { add, remove }) => (
                <>
                  <div className="finance-levels-head">
                    <span />
                    <Typography.Text strong>{t('finance.commission.levels')}</Typography.Text>
                    <Typography.Text strong>{t('finance.commission.promoterLevels')}</Typography.Text>
                  </div>
                  {fields.map((f, i) => (
                    <div key={f.key} className="finance-levels-row" data-testid={`commission-level-${i + 1}`}>
                      <Typography.Text>{t('finance.commission.level', { n: i + 1 })}</Typography.Text>
                      <Form.Item name={[f.name, 'member']} rules={[rate]} noStyle>
                        <InputNumber min={0} max={MAX_LEVEL_PCT} precision={2} step={0.5} className="full" aria-label={`${t('finance.commission.levels')} ${i + 1}`} />
                      </Form.Item>
                      <Form.Item name={[f.name, 'promoter']} rules={[rate]} noStyle>
                        <InputNumber min={0} max={MAX_LEVEL_PCT} precision={2} step={0.5} className="full" aria-label={`${t('finance.commission.promoterLevels')} ${i + 1}`} />
                      </Form.Item>
                    </div>
                  ))}
                  <Space className="finance-gap" wrap>
                    <Button size="small" icon={<PlusOutlined />} disabled={fields.length >= MAX_LEVELS} onClick={() => add({ member: 0, promoter: 0 })}>
                      {t('finance.commission.addLevel')}
                    </Button>
                    <Button size="small" icon={<MinusOutlined />} disabled={fields.length <= 1} onClick={() => remove(fields.length - 1)}>
                      {t('finance.commission.removeLevel')}
                    </Button>
                  </Space>
                </>
              )}
            </Form.List>
            <Form.Item name="settleDays" label={t('finance.commission.settleDays')} extra={t('finance.commission.settleHint')} rules={[{ required: true }]}>
              <InputNumber min={0} max={90} precision={0} className="full" data-testid="commission-settle" />
            </Form.Item>
            <Form.Item name="creatorShare" label={t('finance.commission.creatorShare')} rules={[{ required: true }]}>
              <InputNumber min={0} max={100} precision={2} className="full" data-testid="commission-creator" />
            </Form.Item>
            <Form.Item name="inviteReward" label={t('finance.commission.inviteReward')}>
              <Radio.Group optionType="button" data-testid="commission-reward">
                {(['off', 'phone', 'payment'] as const).map((r) => (
                  <Radio.Button key={r} value={r}>
                    {t(`finance.commission.reward.${r}`)}
                  </Radio.Button>
                ))}
              </Radio.Group>
            </Form.Item>
          </Form>
        </Card>
      )}
    </Page>
  )
}
