// 运营人员 (owner): every operator with their role and whether an
// authenticator is bound; create one (the first password is shown once),
// change a role, reset an authenticator. The three changes need a fresh
// TOTP code: the server answers 403 stepUp and the client prompts.
import { useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Alert, App, Button, Form, Input, Modal, Popconfirm, Select, Space, Tag, Typography } from 'antd'
import { PlusOutlined } from '@ant-design/icons'
import { useT, type MessageKey } from '@/i18n'
import { ROLES, type Role } from '@/lib/session'
import { formatTime } from '@/lib/time'
import { Page } from '@/components/Page'
import { QueryTable } from '@/components/QueryTable'
import { RoleTag } from '@/components/RoleTag'
import { errorTip } from '@/components/ErrorState'
import { createOperator, getOperators, operatorKeys, resetOperatorTotp, setOperatorRole, type Operator } from './api'

function useRoleOptions() {
  const t = useT()
  return ROLES.map((r) => ({ value: r, label: t(`role.${r}` as MessageKey) }))
}

function CreateOperator({ open, onClose }: { open: boolean; onClose: () => void }) {
  const t = useT()
  const qc = useQueryClient()
  const roles = useRoleOptions()
  const [form] = Form.useForm<{ account: string; role: Role }>()
  const [error, setError] = useState<string | null>(null)
  const [made, setMade] = useState<{ account: string; password: string } | null>(null)
  const create = useMutation({
    mutationFn: (v: { account: string; role: Role }) => createOperator(v.account.trim(), v.role),
    onSuccess: (r) => {
      setMade({ account: r.operator.account, password: r.password })
      void qc.invalidateQueries({ queryKey: operatorKeys.all })
    },
    onError: (e) => setError(errorTip(e, t)),
  })
  const close = () => {
    setMade(null)
    setError(null)
    form.resetFields()
    onClose()
  }
  return (
    <Modal
      open={open}
      title={made ? t('ops.created', { account: made.account }) : t('ops.create')}
      onCancel={close}
      destroyOnHidden
      maskClosable={!made}
      footer={
        made ? (
          <Button type="primary" onClick={close} data-testid="op-password-close">
            {t('common.close')}
          </Button>
        ) : (
          <Space>
            <Button onClick={close}>{t('common.cancel')}</Button>
            <Button type="primary" loading={create.isPending} onClick={() => form.submit()} data-testid="op-create-submit">
              {t('ops.create')}
            </Button>
          </Space>
        )
      }
    >
      {made ? (
        <div className="stack" data-testid="op-password">
          <Alert type="warning" showIcon title={t('ops.passwordOnce')} />
          <Typography.Text>{t('ops.password')}</Typography.Text>
          <Typography.Text code copyable className="mono" data-testid="op-password-value">
            {made.password}
          </Typography.Text>
        </div>
      ) : (
        <Form
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={(v) => {
            setError(null)
            create.mutate(v)
          }}
        >
          {error ? <Alert type="error" showIcon title={error} className="auth-alert" data-testid="op-create-error" /> : null}
          <Form.Item name="account" label={t('ops.account')} extra={t('ops.accountHint')} rules={[{ required: true, whitespace: true, message: t('ops.needAccount') }]}>
            <Input autoComplete="off" data-testid="op-account" />
          </Form.Item>
          <Form.Item name="role" label={t('ops.role')} rules={[{ required: true, message: t('ops.needRole') }]}>
            <Select options={roles} data-testid="op-role" />
          </Form.Item>
        </Form>
      )}
    </Modal>
  )
}

function ChangeRole({ op, onClose }: { op: Operator | null; onClose: () => void }) {
  const t = useT()
  const qc = useQueryClient()
  const { message } = App.useApp()
  const roles = useRoleOptions()
  const [role, setRole] = useState<Role | null>(null)
  const change = useMutation({
    mutationFn: (v: { uid: number; role: Role }) => setOperatorRole(v.uid, v.role),
    onSuccess: () => {
      void message.success(t('ops.roleChanged'))
      void qc.invalidateQueries({ queryKey: operatorKeys.all })
      onClose()
    },
    onError: (e) => void message.error(errorTip(e, t)),
  })
  const chosen = role ?? op?.role ?? null
  return (
    <Modal
      open={op !== null}
      title={op ? t('ops.changeRoleTitle', { account: op.account }) : ''}
      onCancel={onClose}
      afterOpenChange={(o) => !o && setRole(null)}
      okText={t('common.confirm')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: !op || !chosen || chosen === op.role, loading: change.isPending, ...{ 'data-testid': 'op-role-submit' } }}
      onOk={() => op && chosen && change.mutate({ uid: op.uid, role: chosen })}
    >
      <Select className="full" value={chosen} options={roles} onChange={(r: Role) => setRole(r)} data-testid="op-role-select" />
    </Modal>
  )
}

export function OperatorsPage() {
  const t = useT()
  const qc = useQueryClient()
  const { message } = App.useApp()
  const [creating, setCreating] = useState(false)
  const [changing, setChanging] = useState<Operator | null>(null)
  const q = useQuery({ queryKey: operatorKeys.all, queryFn: getOperators })
  const reset = useMutation({
    mutationFn: (op: Operator) => resetOperatorTotp(op.uid),
    onSuccess: () => {
      void message.success(t('ops.resetDone'))
      void qc.invalidateQueries({ queryKey: operatorKeys.all })
    },
    onError: (e) => void message.error(errorTip(e, t)),
  })
  return (
    <Page
      title={t('ops.title')}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="op-create">
          {t('ops.create')}
        </Button>
      }
    >
      <QueryTable<Operator>
        query={q}
        empty={t('ops.empty')}
        rowKey="uid"
        dataSource={q.data?.list}
        data-testid="operators-table"
        columns={[
          { title: 'UID', dataIndex: 'uid' },
          { title: t('ops.account'), dataIndex: 'account' },
          { title: t('ops.name'), dataIndex: 'name', responsive: ['md'] },
          { title: t('ops.role'), dataIndex: 'role', render: (r: string) => <RoleTag role={r} /> },
          { title: t('ops.totp'), dataIndex: 'totp', render: (on: boolean) => <Tag color={on ? 'green' : 'default'}>{on ? t('ops.totpOn') : t('ops.totpOff')}</Tag> },
          { title: t('ops.createdAt'), dataIndex: 'createdAt', render: formatTime, responsive: ['md'] },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_, op) => (
              <Space wrap>
                <Button size="small" onClick={() => setChanging(op)} data-testid={`op-role-${op.account}`}>
                  {t('ops.changeRole')}
                </Button>
                <Popconfirm title={t('ops.resetTotpConfirm', { account: op.account })} onConfirm={() => reset.mutate(op)} okButtonProps={{ danger: true }}>
                  <Button size="small" danger disabled={!op.totp} loading={reset.isPending && reset.variables?.uid === op.uid}>
                    {t('ops.resetTotp')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <CreateOperator open={creating} onClose={() => setCreating(false)} />
      <ChangeRole op={changing} onClose={() => setChanging(null)} />
    </Page>
  )
}
