// 用户: find one user by uid or account (the server has no list of
// everyone to page through yet: search by phone or name comes with part 1's
// People section), open them in a drawer.
import { useState } from 'react'
import { useSearchParams } from 'react-router'
import { useQuery } from '@tanstack/react-query'
import { Button, Empty, Input, Select, Space, Table, Tag, Typography } from 'antd'
import { ApiError } from '@/lib/api'
import { useT, type MessageKey } from '@/i18n'
import { formatTime } from '@/lib/time'
import { Page } from '@/components/Page'
import { RoleTag } from '@/components/RoleTag'
import { ErrorState } from '@/components/ErrorState'
import { getUser, peopleKeys, type Lookup, type UserView } from './api'
import { parseLookup } from './lookup'
import { UserDrawer } from './UserDrawer'

export function PeoplePage() {
  const t = useT()
  const [params, setParams] = useSearchParams()
  const by = params.get('by') === 'account' ? 'account' : 'uid'
  const text = params.get('q') ?? ''
  const [draft, setDraft] = useState(text)
  const [draftBy, setDraftBy] = useState<'uid' | 'account'>(by)
  const [open, setOpen] = useState<number | null>(null)
  const parsed = parseLookup(by, text)
  const lookup: Lookup | null = parsed && parsed !== 'bad-uid' ? parsed : null
  const q = useQuery({ queryKey: peopleKeys.user(lookup ?? { by: 'uid', uid: 0 }), queryFn: () => getUser(lookup!), enabled: lookup !== null })
  const badUid = parseLookup(draftBy, draft) === 'bad-uid'

  const search = () => {
    if (badUid) return
    setParams(draft.trim() ? { by: draftBy, q: draft.trim() } : {})
  }
  const notFound = q.error instanceof ApiError && q.error.status === 404

  return (
    <Page title={t('people.title')}>
      <Typography.Paragraph type="secondary">{t('people.hint')}</Typography.Paragraph>
      <Space.Compact className="search-box">
        <Select
          value={draftBy}
          onChange={(v: 'uid' | 'account') => setDraftBy(v)}
          options={[
            { value: 'uid', label: t('people.byUid') },
            { value: 'account', label: t('people.byAccount') },
          ]}
          aria-label={t('people.by')}
          data-testid="people-by"
        />
        <Input.Search
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onSearch={search}
          placeholder={t('people.query')}
          enterButton={t('common.search')}
          status={badUid ? 'error' : undefined}
          allowClear
          data-testid="people-query"
        />
      </Space.Compact>
      {badUid ? <Typography.Text type="danger">{t('people.badUid')}</Typography.Text> : null}
      <div className="results">
        {!lookup ? null : q.isError && !notFound ? (
          <ErrorState error={q.error} onRetry={() => void q.refetch()} />
        ) : (
          <Table<UserView>
            size="middle"
            rowKey="uid"
            loading={q.isFetching}
            pagination={false}
            scroll={{ x: 'max-content' }}
            dataSource={q.data ? [q.data] : []}
            locale={{ emptyText: q.isPending ? <span /> : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('people.none')} /> }}
            onRow={(u) => ({ onClick: () => setOpen(u.uid), className: 'clickable' })}
            data-testid="people-table"
            columns={[
              { title: t('people.uid'), dataIndex: 'uid' },
              { title: t('people.name'), dataIndex: 'name' },
              { title: t('people.account'), dataIndex: 'account', render: (a: string | null, u) => (u.isGuest ? <Tag>{t('people.guest')}</Tag> : a) },
              { title: t('people.role'), dataIndex: 'role', render: (r: string) => <RoleTag role={r} /> },
              { title: t('people.vip'), dataIndex: 'vipLevel', render: (v: number) => t(`people.vip${Math.min(Math.max(v, 0), 2)}` as MessageKey), responsive: ['md'] },
              { title: t('people.sessions'), dataIndex: 'liveSessions' },
              { title: t('people.createdAt'), dataIndex: 'createdAt', render: formatTime, responsive: ['md'] },
              { title: t('common.actions'), key: 'open', render: (_, u) => <Button type="link" size="small" onClick={() => setOpen(u.uid)}>{t('people.open')}</Button> },
            ]}
          />
        )}
      </div>
      <UserDrawer uid={open} onClose={() => setOpen(null)} />
    </Page>
  )
}
