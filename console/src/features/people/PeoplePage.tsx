// 用户: one search box (uid, account, phone or part of a name), the users
// it finds newest first with a keyset pager, each opening its page in a
// drawer.
import { useState } from 'react'
import { useSearchParams } from 'react-router'
import { useQuery } from '@tanstack/react-query'
import { Button, Input, Tag, Typography } from 'antd'
import { useT, type MessageKey } from '@/i18n'
import { formatTime } from '@/lib/time'
import { cursorOf, firstPage, newer, older, type Pager as PagerState } from '@/lib/pager'
import { Page } from '@/components/Page'
import { Pager } from '@/components/Pager'
import { QueryTable } from '@/components/QueryTable'
import { RoleTag } from '@/components/RoleTag'
import { peopleKeys, searchUsers, type UserView } from './api'
import { UserDrawer } from './UserDrawer'

export function PeoplePage() {
  const t = useT()
  const [params, setParams] = useSearchParams()
  const text = params.get('q') ?? ''
  const openUid = Number(params.get('uid') ?? '') || null
  const [draft, setDraft] = useState(text)
  const [pager, setPager] = useState<PagerState>(firstPage)
  const cursor = cursorOf(pager)
  const q = useQuery({ queryKey: peopleKeys.search(text, cursor), queryFn: () => searchUsers(text, cursor), enabled: text !== '' })
  const search = (v: string) => {
    setPager(firstPage)
    setParams(v.trim() ? { q: v.trim() } : {})
  }
  const open = (uid: number | null) => {
    const next = new URLSearchParams(params)
    if (uid === null) next.delete('uid')
    else next.set('uid', String(uid))
    setParams(next)
  }

  return (
    <Page title={t('people.title')}>
      <Typography.Paragraph type="secondary">{t('people.search.hint')}</Typography.Paragraph>
      <Input.Search
        className="search-box"
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onSearch={search}
        placeholder={t('people.search.placeholder')}
        enterButton={t('common.search')}
        maxLength={64}
        allowClear
        data-testid="people-query"
      />
      <div className="results">
        {text === '' ? (
          <Typography.Text type="secondary">{t('people.search.start')}</Typography.Text>
        ) : (
          <>
            <QueryTable<UserView>
              query={q}
              empty={t('people.search.empty')}
              rowKey="uid"
              dataSource={q.data?.list ?? []}
              onRow={(u) => ({ onClick: () => open(u.uid), className: 'clickable' })}
              data-testid="people-table"
              columns={[
                { title: t('people.uid'), dataIndex: 'uid' },
                { title: t('people.name'), dataIndex: 'name' },
                { title: t('people.account'), dataIndex: 'account', render: (a: string | null, u) => (u.isGuest ? <Tag>{t('people.guest')}</Tag> : a) },
                { title: t('people.mobile'), dataIndex: 'mobile', render: (m: string) => m || '—', responsive: ['md'] },
                { title: t('people.state'), key: 'state', render: (_, u) => (u.banned ? <Tag color="red">{t('people.state.banned')}</Tag> : <Tag color="green">{t('people.state.ok')}</Tag>) },
                { title: t('people.role'), dataIndex: 'role', render: (r: string) => <RoleTag role={r} />, responsive: ['lg'] },
                { title: t('people.vip'), dataIndex: 'vipLevel', render: (v: number) => t(`people.vip${Math.min(Math.max(v, 0), 2)}` as MessageKey), responsive: ['md'] },
                { title: t('people.createdAt'), dataIndex: 'createdAt', render: formatTime, responsive: ['lg'] },
                {
                  title: t('common.actions'),
                  key: 'open',
                  render: (_, u) => (
                    <Button type="link" size="small" onClick={() => open(u.uid)} data-testid={`people-open-${u.uid}`}>
                      {t('people.open')}
                    </Button>
                  ),
                },
              ]}
            />
            <Pager
              page={pager.index + 1}
              hasPrev={pager.index > 0}
              hasNext={!!q.data?.nextCursor}
              busy={q.isFetching}
              labels="page"
              onPrev={() => setPager(newer(pager))}
              onNext={() => setPager(older(pager, q.data?.nextCursor ?? null))}
            />
          </>
        )}
      </div>
      <UserDrawer uid={openUid} onClose={() => open(null)} />
    </Page>
  )
}
