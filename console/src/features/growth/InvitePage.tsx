// 增长 → 邀请设置: the invitation settings (coins per rewarded invitee, how
// many days after joining a user may bind an inviter, rewarded invitees
// per inviter a day, the rules the share page shows) and every invitation,
// newest first (one inviter's with the filter), paged by keyset. Saving
// the settings asks for a fresh step-up: the reward mints coins.
import { useEffect, useState } from 'react'
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { App, Button, Card, Form, Input, InputNumber, Space, Spin, Tag, Typography } from 'antd'
import { useT, type MessageKey } from '@/i18n'
import { formatTime } from '@/lib/time'
import { Page } from '@/components/Page'
import { Pager } from '@/components/Pager'
import { QueryTable } from '@/components/QueryTable'
import { ErrorState, errorTip } from '@/components/ErrorState'
import { getInvitations, getInviteConfig, growthKeys, saveInviteConfig, type Invitation, type InviteConfig, type InvitePerson } from './api'
import { MAX_REWARD_COINS, whole } from './logic'
import { useKeyset } from '@/components/hooks'

const REWARD_STATES = ['pending', 'rewarded', 'off', 'capped', 'device'] as const
const stateColor: Record<string, string> = { rewarded: 'green', pending: 'blue', capped: 'orange', device: 'red' }

function Person({ p }: { p: InvitePerson }) {
  return (
    <span>
      {p.name || '—'} <Typography.Text type="secondary">#{p.uid}</Typography.Text>
    </span>
  )
}

function Settings() {
  const t = useT()
  const qc = useQueryClient()
  const { message } = App.useApp()
  const q = useQuery({ queryKey: growthKeys.invite, queryFn: getInviteConfig })
  const [form] = Form.useForm<InviteConfig>()
  useEffect(() => {
    if (q.data) form.setFieldsValue(q.data)
  }, [q.data, form])
  const save = useMutation({
    mutationFn: (c: InviteConfig) => saveInviteConfig(c),
    onSuccess: (c) => {
      void message.success(t('growth.saved'))
      qc.setQueryData(growthKeys.invite, c)
    },
    onError: (e) => void message.error(errorTip(e, t)),
  })
  if (q.isError) return <ErrorState error={q.error} onRetry={() => void q.refetch()} />
  return (
    <Card
      size="small"
      title={t('growth.invite.settings')}
      className="growth-filter"
      extra={
        <Button type="primary" size="small" loading={save.isPending} disabled={q.isPending} onClick={() => form.submit()} data-testid="invite-save">
          {t('growth.save')}
        </Button>
      }
    >
      {q.isPending ? (
        <Spin />
      ) : (
        <Form<InviteConfig>
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={(v) => save.mutate({ rewardCoins: v.rewardCoins ?? 0, windowDays: v.windowDays, dailyCap: v.dailyCap, rules: (v.rules ?? '').trim() })}
        >
          <Space wrap className="full">
            <Form.Item name="rewardCoins" label={t('growth.invite.rewardCoins')} extra={t('growth.invite.rewardCoinsHint')}>
              <InputNumber min={0} max={MAX_REWARD_COINS} precision={0} data-testid="invite-coins" />
            </Form.Item>
            <Form.Item name="windowDays" label={t('growth.invite.windowDays')} rules={[{ validator: (_, v) => (whole(v, 1, 365) !== null ? Promise.resolve() : Promise.reject(new Error(t('growth.range', { min: 1, max: 365 })))) }]}>
              <InputNumber min={1} max={365} precision={0} />
            </Form.Item>
            <Form.Item name="dailyCap" label={t('growth.invite.dailyCap')} rules={[{ validator: (_, v) => (whole(v, 1, 10000) !== null ? Promise.resolve() : Promise.reject(new Error(t('growth.range', { min: 1, max: 10000 })))) }]}>
              <InputNumber min={1} max={10000} precision={0} />
            </Form.Item>
          </Space>
          <Form.Item name="rules" label={t('growth.invite.rules')} extra={t('growth.invite.rulesHint')} rules={[{ max: 2000, message: t('growth.tooLong', { n: 2000 }) }]}>
            <Input.TextArea rows={4} maxLength={2000} showCount />
          </Form.Item>
        </Form>
      )}
    </Card>
  )
}

export function InvitePage() {
  const t = useT()
  const ks = useKeyset()
  const [input, setInput] = useState('')
  const [inviter, setInviter] = useState<number | undefined>(undefined)
  const q = useQuery({ queryKey: growthKeys.invitations(inviter, ks.cursor), queryFn: () => getInvitations(inviter, ks.cursor), placeholderData: keepPreviousData })
  const badFilter = input.trim() !== '' && whole(input.trim(), 1, Number.MAX_SAFE_INTEGER) === null
  const apply = () => {
    if (badFilter) return
    ks.reset()
    setInviter(input.trim() ? Number(input.trim()) : undefined)
  }
  return (
    <Page title={t('growth.invite')}>
      <Settings />
      <Typography.Title level={5}>{t('growth.invite.list')}</Typography.Title>
      <Space wrap className="growth-filter">
        <Input
          allowClear
          value={input}
          onChange={(e) => setInput(e.target.value)}
          onPressEnter={apply}
          placeholder={t('growth.invite.inviterUID')}
          status={badFilter ? 'error' : undefined}
          inputMode="numeric"
          data-testid="invite-filter"
        />
        <Button onClick={apply} disabled={badFilter}>
          {t('common.search')}
        </Button>
      </Space>
      <QueryTable<Invitation>
        query={q}
        empty={inviter ? t('growth.invite.emptyOne') : t('growth.invite.empty')}
        rowKey={(v) => v.invitee.uid}
        dataSource={q.data?.list}
        data-testid="invite-table"
        columns={[
          { title: t('growth.invite.inviter'), key: 'inviter', render: (_, v) => <Person p={v.inviter} /> },
          { title: t('growth.invite.invitee'), key: 'invitee', render: (_, v) => <Person p={v.invitee} /> },
          { title: t('growth.invite.boundAt'), dataIndex: 'boundAt', render: (b: number) => formatTime(b), responsive: ['md'] },
          { title: t('growth.invite.registered'), dataIndex: 'registered', render: (r: boolean) => (r ? t('common.yes') : t('common.no')), responsive: ['lg'] },
          {
            title: t('growth.invite.reward'),
            key: 'reward',
            render: (_, v) => (
              <Space size={4}>
                <Tag color={stateColor[v.rewardState]}>{(REWARD_STATES as readonly string[]).includes(v.rewardState) ? t(`growth.invite.state.${v.rewardState}` as MessageKey) : v.rewardState}</Tag>
                {v.rewardCoins ? t('growth.nCoins', { n: v.rewardCoins }) : null}
              </Space>
            ),
          },
        ]}
      />
      <Pager labels="time" page={ks.page} hasPrev={ks.page > 1} hasNext={!!q.data?.nextCursor} busy={q.isFetching} onPrev={ks.prev} onNext={() => ks.next(q.data?.nextCursor)} />
    </Page>
  )
}
