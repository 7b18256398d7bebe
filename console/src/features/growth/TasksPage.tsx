// 增长 → 任务: every welfare task (active or not) in the app's order; create
// and edit in a drawer (title, description, daily or once, what it counts
// and how many, the reward, the in-app link, order), switch one on or off
// from its row. The phone's task list (GET /api/app/active/task) shows the
// active ones.
import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Button, Drawer, Form, Input, InputNumber, Select, Space, Switch, Tag } from 'antd'
import { PlusOutlined } from '@ant-design/icons'
import { useT, type MessageKey, type T } from '@/i18n'
import { Page } from '@/components/Page'
import { QueryTable } from '@/components/QueryTable'
import { METRICS, TASK_KINDS, getTasks, growthKeys, saveTask, type Metric, type TaskDef, type TaskKind } from './api'
import { MAX_POINTS, MAX_REWARD_COINS } from './logic'
import { useDrawerSize, useSave } from '@/components/hooks'

interface FormValues {
  title: string
  desc: string
  kind: TaskKind
  metric: Metric
  target: number
  points: number
  coins: number
  link: string
  sort: number
  active: boolean
}

function rewardText(t: T, r: { points?: number; coins?: number }): string {
  const parts = []
  if (r.points) parts.push(t('growth.nPoints', { n: r.points }))
  if (r.coins) parts.push(t('growth.nCoins', { n: r.coins }))
  return parts.join(' + ') || '—'
}

export function TasksPage() {
  const t = useT()
  const size = useDrawerSize()
  const q = useQuery({ queryKey: growthKeys.tasks, queryFn: getTasks })
  const [editing, setEditing] = useState<TaskDef | 'new' | null>(null)
  const [form] = Form.useForm<FormValues>()
  const save = useSave((d: TaskDef) => saveTask(d), 'growth.saved', growthKeys.tasks, () => setEditing(null))
  const toggle = useSave((d: TaskDef) => saveTask(d), 'growth.saved', growthKeys.tasks)
  const open = (d: TaskDef | 'new') => {
    setEditing(d)
    form.resetFields()
    if (d !== 'new')
      form.setFieldsValue({ title: d.title, desc: d.desc, kind: d.kind, metric: d.metric, target: d.target, points: d.reward.points ?? 0, coins: d.reward.coins ?? 0, link: d.link, sort: d.sort, active: d.active })
  }
  const submit = (v: FormValues) =>
    save.mutate({
      id: editing && editing !== 'new' ? editing.id : 0,
      title: v.title.trim(),
      desc: (v.desc ?? '').trim(),
      kind: v.kind,
      metric: v.metric,
      target: v.target,
      reward: { points: v.points ?? 0, coins: v.coins ?? 0 },
      link: (v.link ?? '').trim(),
      sort: v.sort ?? 0,
      active: v.active,
    })
  return (
    <Page
      title={t('growth.tasks')}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => open('new')} data-testid="task-create">
          {t('growth.tasks.create')}
        </Button>
      }
    >
      <QueryTable<TaskDef>
        query={q}
        empty={t('growth.tasks.empty')}
        rowKey="id"
        dataSource={q.data}
        data-testid="tasks-table"
        columns={[
          { title: 'ID', dataIndex: 'id', responsive: ['sm'] },
          { title: t('growth.title'), dataIndex: 'title' },
          { title: t('growth.kind'), dataIndex: 'kind', render: (k: TaskKind) => <Tag>{t(`growth.kind.${k}` as MessageKey)}</Tag>, responsive: ['md'] },
          { title: t('growth.metric'), key: 'metric', render: (_, d) => `${t(`growth.metric.${d.metric}` as MessageKey)} × ${d.target}`, responsive: ['md'] },
          { title: t('growth.reward'), key: 'reward', render: (_, d) => rewardText(t, d.reward) },
          { title: t('growth.sort'), dataIndex: 'sort', responsive: ['lg'] },
          {
            title: t('growth.active'),
            key: 'active',
            render: (_, d) => (
              <Switch size="small" checked={d.active} loading={toggle.isPending && toggle.variables?.id === d.id} onChange={(on) => toggle.mutate({ ...d, active: on })} data-testid={`task-active-${d.id}`} />
            ),
          },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_, d) => (
              <Button size="small" onClick={() => open(d)} data-testid={`task-edit-${d.id}`}>
                {t('growth.edit')}
              </Button>
            ),
          },
        ]}
      />
      <Drawer
        open={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? t('growth.tasks.create') : t('growth.edit')}
        size={size}
        forceRender
        extra={
          <Button type="primary" loading={save.isPending} onClick={() => form.submit()} data-testid="task-submit">
            {t('growth.save')}
          </Button>
        }
      >
        <Form<FormValues>
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={submit}
          initialValues={{ kind: 'daily', metric: 'watch', target: 1, points: 10, coins: 0, sort: 0, active: true }}
        >
          <Form.Item name="title" label={t('growth.title')} rules={[{ required: true, whitespace: true, message: t('growth.needTitle') }, { max: 40, message: t('growth.tooLong', { n: 40 }) }]}>
            <Input maxLength={40} data-testid="task-title" />
          </Form.Item>
          <Form.Item name="desc" label={t('growth.desc')} rules={[{ max: 200, message: t('growth.tooLong', { n: 200 }) }]}>
            <Input.TextArea rows={2} maxLength={200} showCount />
          </Form.Item>
          <Space wrap className="full">
            <Form.Item name="kind" label={t('growth.kind')}>
              <Select className="filter-select" options={TASK_KINDS.map((k) => ({ value: k, label: t(`growth.kind.${k}` as MessageKey) }))} />
            </Form.Item>
            <Form.Item name="metric" label={t('growth.metric')}>
              <Select className="filter-select" options={METRICS.map((m) => ({ value: m, label: t(`growth.metric.${m}` as MessageKey) }))} />
            </Form.Item>
            <Form.Item name="target" label={t('growth.target')} rules={[{ required: true, message: t('growth.range', { min: 1, max: 1000 }) }]}>
              <InputNumber min={1} max={1000} precision={0} />
            </Form.Item>
          </Space>
          <Space wrap className="full">
            <Form.Item name="points" label={t('growth.points')}>
              <InputNumber min={0} max={MAX_POINTS} precision={0} />
            </Form.Item>
            <Form.Item
              name="coins"
              label={t('growth.coins')}
              dependencies={['points']}
              rules={[({ getFieldValue }) => ({ validator: (_, v: number | null) => ((v ?? 0) + ((getFieldValue('points') as number | null) ?? 0) > 0 ? Promise.resolve() : Promise.reject(new Error(t('growth.dayEmpty')))) })]}
            >
              <InputNumber min={0} max={MAX_REWARD_COINS} precision={0} />
            </Form.Item>
          </Space>
          <Form.Item
            name="link"
            label={t('growth.link')}
            extra={t('growth.linkHint')}
            rules={[{ validator: (_, v: string | undefined) => (!v || (v.startsWith('/') && !v.startsWith('//') && v.length <= 200) ? Promise.resolve() : Promise.reject(new Error(t('growth.linkHint')))) }]}
          >
            <Input placeholder="/welfare" />
          </Form.Item>
          <Space wrap className="full">
            <Form.Item name="sort" label={t('growth.sort')}>
              <InputNumber min={0} max={100000} precision={0} />
            </Form.Item>
            <Form.Item name="active" label={t('growth.active')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Space>
        </Form>
      </Drawer>
    </Page>
  )
}
