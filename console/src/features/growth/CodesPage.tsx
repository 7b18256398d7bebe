// 增长 → 兑换码: the redemption-code batches, newest first, each with its
// reward, codes and uses, redemptions, expiry and state; create a batch and
// disable one (for good, after a confirmation).
//
// The server keeps only a keyed hash of each code, so the plain codes exist
// once: in the answer that made the batch. The page shows them at once
// with a CSV download (codes-batch-<id>.csv) and copy, says they cannot be
// shown again, and asks before the window closes without a download. The
// list cannot say whether a batch's codes were downloaded: the server never
// learns of a download made in the browser.
import { useState } from 'react'
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Alert, App, Button, DatePicker, Drawer, Form, Input, InputNumber, Modal, Popconfirm, Select, Space, Tag, Typography } from 'antd'
import { CopyOutlined, DownloadOutlined, PlusOutlined } from '@ant-design/icons'
import type { Dayjs } from 'dayjs'
import dayjs from 'dayjs'
import { useT, type MessageKey } from '@/i18n'
import { formatTime } from '@/lib/time'
import { Page } from '@/components/Page'
import { Pager } from '@/components/Pager'
import { QueryTable } from '@/components/QueryTable'
import { errorTip } from '@/components/ErrorState'
import { createBatch, disableBatch, getBatches, growthKeys, type Batch, type NewBatch } from './api'
import { prizeRewardText } from './PrizesPage'
import { MAX_BATCH_CODES, MAX_BATCH_NAME, MAX_REWARD_COINS, MAX_REWARD_COUPONS, MAX_REWARD_VIP_DAYS, MAX_USES_PER_CODE, batchState, codesCSV, codesFileName, downloadText, type BatchState } from './logic'
import { useDrawerSize, useKeyset, useSave } from '@/components/hooks'

interface FormValues {
  name: string
  coins: number
  vipDays: number
  vipLevel: number
  coupons: number
  count: number
  usesPerCode: number
  expiresAt: Dayjs | null
}

const stateColor: Record<BatchState, string> = { active: 'green', disabled: 'red', expired: 'default', usedUp: 'orange' }

interface Made {
  batch: Batch
  codes: string[]
  downloaded: boolean
  copied: boolean
}

export function CodesPage() {
  const t = useT()
  const qc = useQueryClient()
  const { message, modal } = App.useApp()
  const size = useDrawerSize()
  const ks = useKeyset()
  const q = useQuery({ queryKey: growthKeys.batches(ks.cursor), queryFn: () => getBatches(ks.cursor), placeholderData: keepPreviousData })
  const [creating, setCreating] = useState(false)
  const [made, setMade] = useState<Made | null>(null)
  const [form] = Form.useForm<FormValues>()
  const create = useMutation({
    mutationFn: (b: NewBatch) => createBatch(b),
    onSuccess: (r) => {
      setCreating(false)
      setMade({ batch: r.batch, codes: r.codes, downloaded: false, copied: false })
      ks.reset()
      void qc.invalidateQueries({ queryKey: growthKeys.allBatches })
    },
    onError: (e) => void message.error(errorTip(e, t)),
  })
  const disable = useSave((id: number) => disableBatch(id), 'growth.codes.disabled', growthKeys.allBatches)
  const now = Math.floor(Date.now() / 1000)

  const submit = (v: FormValues) =>
    create.mutate({
      name: v.name.trim(),
      reward: { coins: v.coins ?? 0, vipLevel: v.vipDays ? v.vipLevel : 0, vipDays: v.vipDays ?? 0, coupons: v.coupons ?? 0 },
      count: v.count,
      usesPerCode: v.usesPerCode,
      expiresAt: v.expiresAt ? v.expiresAt.unix() : 0,
    })
  const download = () => {
    if (!made) return
    downloadText(codesCSV(made.codes), codesFileName(made.batch.id))
    setMade({ ...made, downloaded: true })
  }
  const copy = async () => {
    if (!made) return
    try {
      await navigator.clipboard.writeText(made.codes.join('\n'))
      void message.success(t('common.copied'))
      setMade({ ...made, copied: true })
    } catch {
      void message.error(t('growth.codes.copyFailed'))
    }
  }
  const close = () => {
    if (made && !made.downloaded && !made.copied) {
      modal.confirm({
        title: t('growth.codes.closeTitle'),
        content: t('growth.codes.closeBody'),
        okText: t('growth.codes.closeAnyway'),
        okButtonProps: { danger: true },
        onOk: () => setMade(null),
      })
      return
    }
    setMade(null)
  }
  const rewardRule = ({ getFieldValue }: { getFieldValue: (n: string) => unknown }) => ({
    validator: () => {
      const n = (k: string) => (getFieldValue(k) as number | null) ?? 0
      return n('coins') + n('vipDays') + n('coupons') > 0 ? Promise.resolve() : Promise.reject(new Error(t('growth.rewardEmpty')))
    },
  })

  return (
    <Page
      title={t('growth.codes')}
      extra={
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => {
            form.resetFields()
            setCreating(true)
          }}
          data-testid="codes-create"
        >
          {t('growth.codes.create')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('growth.codes.hint')}</Typography.Paragraph>
      <QueryTable<Batch>
        query={q}
        empty={t('growth.codes.empty')}
        rowKey="id"
        dataSource={q.data?.list}
        data-testid="codes-table"
        columns={[
          { title: 'ID', dataIndex: 'id' },
          { title: t('growth.codes.name'), dataIndex: 'name' },
          { title: t('growth.reward'), key: 'reward', render: (_, b) => prizeRewardText(t, b.reward), responsive: ['sm'] },
          {
            title: t('growth.codes.count'),
            key: 'count',
            render: (_, b) => (b.usesPerCode > 1 ? t('growth.codes.countUses', { n: b.count, uses: b.usesPerCode }) : b.count),
            responsive: ['md'],
          },
          {
            title: t('growth.codes.redeemed'),
            key: 'redeemed',
            render: (_, b) => <span data-testid={`codes-redeemed-${b.id}`}>{t('growth.codes.redeemedOf', { n: b.redeemed, of: b.count * b.usesPerCode })}</span>,
          },
          { title: t('growth.codes.expires'), dataIndex: 'expiresAt', render: (e: number) => (e ? formatTime(e) : t('growth.codes.never')), responsive: ['lg'] },
          { title: t('growth.codes.createdAt'), dataIndex: 'createdAt', render: (c: number) => formatTime(c), responsive: ['lg'] },
          {
            title: t('growth.state'),
            key: 'state',
            render: (_, b) => {
              const s = batchState(b, now)
              return (
                <Tag color={stateColor[s]} data-testid={`codes-state-${b.id}`}>
                  {t(`growth.codes.state.${s}` as MessageKey)}
                </Tag>
              )
            },
          },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_, b) =>
              b.disabledAt ? (
                <Typography.Text type="secondary">{formatTime(b.disabledAt)}</Typography.Text>
              ) : (
                <Popconfirm title={t('growth.codes.disableConfirm', { name: b.name })} onConfirm={() => disable.mutate(b.id)} okButtonProps={{ danger: true, ...{ 'data-testid': 'codes-disable-ok' } }}>
                  <Button size="small" danger loading={disable.isPending && disable.variables === b.id} data-testid={`codes-disable-${b.id}`}>
                    {t('growth.codes.disable')}
                  </Button>
                </Popconfirm>
              ),
          },
        ]}
      />
      <Pager labels="time" page={ks.page} hasPrev={ks.page > 1} hasNext={!!q.data?.nextCursor} busy={q.isFetching} onPrev={ks.prev} onNext={() => ks.next(q.data?.nextCursor)} />

      <Drawer
        open={creating}
        onClose={() => setCreating(false)}
        title={t('growth.codes.create')}
        size={size}
        forceRender
        extra={
          <Button type="primary" loading={create.isPending} onClick={() => form.submit()} data-testid="codes-submit">
            {t('growth.codes.make')}
          </Button>
        }
      >
        <Alert type="warning" showIcon className="growth-filter" title={t('growth.codes.onceWarning')} />
        <Form<FormValues> form={form} layout="vertical" requiredMark={false} onFinish={submit} initialValues={{ coins: 10, vipDays: 0, vipLevel: 1, coupons: 0, count: 100, usesPerCode: 1, expiresAt: null }}>
          <Form.Item name="name" label={t('growth.codes.name')} rules={[{ required: true, whitespace: true, message: t('growth.needTitle') }, { max: MAX_BATCH_NAME, message: t('growth.tooLong', { n: MAX_BATCH_NAME }) }]}>
            <Input maxLength={MAX_BATCH_NAME} data-testid="codes-name" />
          </Form.Item>
          <Space wrap className="full">
            <Form.Item name="count" label={t('growth.codes.count')} rules={[{ required: true, message: t('growth.range', { min: 1, max: MAX_BATCH_CODES }) }]}>
              <InputNumber min={1} max={MAX_BATCH_CODES} precision={0} data-testid="codes-count" />
            </Form.Item>
            <Form.Item name="usesPerCode" label={t('growth.codes.uses')} extra={t('growth.codes.usesHint')} rules={[{ required: true, message: t('growth.range', { min: 1, max: MAX_USES_PER_CODE }) }]}>
              <InputNumber min={1} max={MAX_USES_PER_CODE} precision={0} data-testid="codes-uses" />
            </Form.Item>
          </Space>
          <Typography.Text type="secondary">{t('growth.rewardHint')}</Typography.Text>
          <Space wrap className="full">
            <Form.Item name="coins" label={t('growth.coins')} dependencies={['vipDays', 'coupons']} rules={[rewardRule]}>
              <InputNumber min={0} max={MAX_REWARD_COINS} precision={0} data-testid="codes-coins" />
            </Form.Item>
            <Form.Item name="vipDays" label={t('growth.vipDays')}>
              <InputNumber min={0} max={MAX_REWARD_VIP_DAYS} precision={0} />
            </Form.Item>
            <Form.Item name="vipLevel" label={t('growth.vipLevel')}>
              <Select className="filter-select" options={[{ value: 1, label: 'VIP' }, { value: 2, label: 'SVIP' }]} />
            </Form.Item>
            <Form.Item name="coupons" label={t('growth.coupons')}>
              <InputNumber min={0} max={MAX_REWARD_COUPONS} precision={0} />
            </Form.Item>
          </Space>
          <Form.Item
            name="expiresAt"
            label={t('growth.codes.expires')}
            extra={t('growth.codes.expiresHint')}
            rules={[{ validator: (_, v: Dayjs | null) => (!v || v.isAfter(dayjs()) ? Promise.resolve() : Promise.reject(new Error(t('growth.codes.expiresPast')))) }]}
          >
            <DatePicker showTime className="full" />
          </Form.Item>
        </Form>
      </Drawer>

      <Modal
        open={made !== null}
        title={made ? t('growth.codes.madeTitle', { id: made.batch.id, n: made.codes.length }) : ''}
        onCancel={close}
        maskClosable={false}
        destroyOnHidden
        footer={[
          <Button key="copy" icon={<CopyOutlined />} onClick={() => void copy()} data-testid="codes-copy">
            {t('common.copy')}
          </Button>,
          <Button key="dl" type="primary" icon={<DownloadOutlined />} onClick={download} data-testid="codes-download">
            {t('growth.codes.download')}
          </Button>,
          <Button key="close" onClick={close} data-testid="codes-close">
            {t('common.close')}
          </Button>,
        ]}
        data-testid="codes-made"
      >
        <Alert type="warning" showIcon className="growth-filter" title={t('growth.codes.onlyNow')} />
        {made ? (
          <pre className="growth-codes" data-testid="codes-list">
            {made.codes.join('\n')}
          </pre>
        ) : null}
        {made?.downloaded ? <Typography.Text type="success">{t('growth.codes.savedHere', { file: codesFileName(made.batch.id) })}</Typography.Text> : null}
      </Modal>
    </Page>
  )
}
