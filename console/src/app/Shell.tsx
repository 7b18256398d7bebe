// The console's frame: the side menu of the sections the operator's role
// may open (a drawer below 992 px, opened from the header), the header with
// the operator, their role, the language and sign out, and the page.
import { Suspense, useMemo, useState } from 'react'
import { Outlet, useLocation, useNavigate } from 'react-router'
import { Button, Drawer, Dropdown, Grid, Layout, Menu, Result, Space, Spin, Typography, type MenuProps } from 'antd'
import { LogoutOutlined, MenuOutlined, TranslationOutlined, UserOutlined } from '@ant-design/icons'
import { useQueryClient } from '@tanstack/react-query'
import { setLang, useLang, useT } from '@/i18n'
import { signOut, type SessionInfo } from '@/lib/session'
import { clearSession } from '@/lib/session-store'
import { RoleTag } from '@/components/RoleTag'
import { mayOpen, pageOf } from '@/lib/pages'
import { visibleMenu } from './sections'

function NavMenu({ session, onNavigate }: { session: SessionInfo; onNavigate?: () => void }) {
  const t = useT()
  const nav = useNavigate()
  const { pathname } = useLocation()
  const groups = visibleMenu(session.sections, session.role)
  const items: MenuProps['items'] = groups.map((g) =>
    g.pages.length === 1
      ? { key: g.pages[0].path, icon: g.icon, label: t(g.label) }
      : { key: g.key, icon: g.icon, label: t(g.label), children: g.pages.map((p) => ({ key: p.path, label: t(p.label) })) },
  )
  // The longest page path that starts the address (pageOf), so /stats/users
  // marks 用户与漏斗, not 概览 at /stats; only when the menu shows it.
  const current = pageOf(pathname)
  const selected = current && groups.some((g) => g.pages.includes(current)) ? current : undefined
  return (
    <Menu
      mode="inline"
      items={items}
      selectedKeys={selected ? [selected.path] : []}
      defaultOpenKeys={groups.filter((g) => g.pages.length > 1).map((g) => g.key)}
      onClick={({ key }) => {
        nav(key)
        onNavigate?.()
      }}
      data-testid="nav"
    />
  )
}

export function Shell({ session }: { session: SessionInfo }) {
  const t = useT()
  const lang = useLang()
  const screens = Grid.useBreakpoint()
  const wide = screens.lg === true
  const [drawer, setDrawer] = useState(false)
  const { pathname } = useLocation()
  const nav = useNavigate()
  const qc = useQueryClient()
  const page = pageOf(pathname)
  const mayOpenPage = page === undefined || mayOpen(page, session.sections, session.role)

  const leave = async () => {
    try {
      await signOut()
    } catch {
      // gone already: the local sign-out below is what matters
    }
    clearSession()
    qc.clear()
    nav('/login', { replace: true, state: { notice: 'signedOut' } })
  }
  const switchLang = () => setLang(lang === 'en' ? 'zh-CN' : 'en')

  const userMenu: MenuProps = useMemo(
    () => ({
      items: [
        { key: 'who', label: `${session.name || session.account} · ${session.account}`, disabled: true, icon: <UserOutlined /> },
        { key: 'lang', label: t('header.lang'), icon: <TranslationOutlined /> },
        { type: 'divider' },
        { key: 'out', label: t('header.signOut'), icon: <LogoutOutlined />, danger: true },
      ],
      onClick: ({ key }) => {
        if (key === 'lang') switchLang()
        if (key === 'out') void leave()
      },
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [session, t, lang],
  )

  return (
    <Layout className="shell">
      {wide ? (
        <Layout.Sider width={220} theme="light" className="shell-sider">
          <div className="brand">{t('app.title')}</div>
          <NavMenu session={session} />
        </Layout.Sider>
      ) : null}
      <Layout>
        <Layout.Header className="shell-header">
          {wide ? null : <Button type="text" icon={<MenuOutlined />} aria-label={t('nav.open')} onClick={() => setDrawer(true)} data-testid="nav-open" />}
          {wide ? null : <span className="brand brand-inline">{t('app.short')}</span>}
          <span className="grow" />
          {wide ? (
            <Space size="middle" data-testid="operator">
              <Typography.Text strong>{session.name || session.account}</Typography.Text>
              <RoleTag role={session.role} />
              <Button type="text" icon={<TranslationOutlined />} onClick={switchLang}>
                {t('header.lang')}
              </Button>
              <Button icon={<LogoutOutlined />} onClick={() => void leave()} data-testid="sign-out">
                {t('header.signOut')}
              </Button>
            </Space>
          ) : (
            <Space data-testid="operator">
              <RoleTag role={session.role} />
              <Dropdown menu={userMenu} trigger={['click']}>
                <Button type="text" icon={<UserOutlined />} data-testid="user-menu">
                  {session.account}
                </Button>
              </Dropdown>
            </Space>
          )}
        </Layout.Header>
        <Layout.Content className="shell-content">
          {mayOpenPage ? (
            <Suspense fallback={<Spin className="page-spin" />}>
              <Outlet context={session} />
            </Suspense>
          ) : (
            <div data-testid="page-forbidden">
              <Result status="403" title={t('common.forbidden')} subTitle={t('common.forbiddenHint')} extra={<Button onClick={() => nav('/')}>{t('common.backHome')}</Button>} />
            </div>
          )}
        </Layout.Content>
      </Layout>
      {wide ? null : (
        <Drawer placement="left" open={drawer} onClose={() => setDrawer(false)} title={t('app.title')} size={260} className="nav-drawer">
          <NavMenu session={session} onNavigate={() => setDrawer(false)} />
        </Drawer>
      )}
    </Layout>
  )
}
