import { describe, expect, it } from 'vitest'
import { isValidElement } from 'react'
import { matchRoutes, type RouteObject } from 'react-router'
import { appRoutes, buildRoutes, flatRoutes, RedirectTo, routeNameAt, type RouteHandle } from './routes'
import { RouteBoundary } from './RouteErrorBoundary'
import { RoutePage } from './pages'
import { zhCN as zhCNTyped } from '@/i18n/zh-CN'
import { en as enTyped } from '@/i18n/en/pages'

const zhCN: Record<string, string> = zhCNTyped
const en: Record<string, string> = enTyped

// Spec §2, copied by hand: the table must hold every one of these with this
// exact name and path (params written the router's way).
const spec: Record<string, string> = {
  splash: '/',
  mainView: '/main',
  dark: '/dark',
  discover: '/discover',
  shortvideo: '/shortvideo',
  community: '/community',
  home: '/home',
  mine: '/mine',
  detail: '/detail/:id',
  topic: '/community/topic/:id',
  postdetail: '/cdetail/:id',
  message: '/message/:uid',
  publishpicture: '/community/publishpicture',
  publishrule: '/community/publish/rule',
  publishvideo: '/community/publishvideo',
  publisharticle: '/community/publisharticle',
  search: '/search',
  searchresult: '/search/result',
  searchmore: '/search/more',
  homesearch: '/home/search',
  usercenter: '/usercenter/:uid',
  usercentermy: '/myhome',
  gallery: '/gallery/:id',
  galleryVip: '/galleryVip',
  galleryCategory: '/galleryCategory',
  sourceshortvideo: '/sourceshortvideo',
  source: '/source',
  setting: '/mine/setting',
  accountsafe: '/mine/accountsafe',
  bindphone: '/mine/bindphone',
  accountcode: '/mine/accountcode',
  messagecenter: '/mine/message',
  userbroswer: '/mine/userbroswer',
  userbuy: '/mine/userbuy',
  // Not a spec screen: the coupon backpack, reached from Mine and the VIP centre.
  backpack: '/mine/backpack',
  userfav: '/mine/userfav',
  // Not a spec screen: editing my profile, reached from /myhome.
  profileedit: '/mine/profile',
  userlike: '/mine/userlike',
  userguanzhu: '/mine/userguanzhu',
  usertopic: '/mine/usertopic',
  usershouyimx: '/mine/usershouyimx',
  help: '/mine/help',
  yaoqingcode: '/mine/yaoqingcode',
  duihuancode: '/mine/duihuancode',
  groups: '/mine/groups',
  settled: '/mine/settled',
  applicationcenter: '/mine/applicationcenter',
  applicationdownload: '/mine/applicationdownload',
  userfulitask: '/mine/userfulitask',
  usercoinchongzhi: '/mine/usercoinchongzhi',
  usershareshenqing: '/mine/usershareshenqing',
  vipcenter: '/mine/vipcenter',
  withdraw: '/mine/withdraw',
  withdrawdetail: '/mine/withdraw/detail',
  userrecords: '/mine/userbuyrecord',
  usercoinrecords: '/mine/usercoinrecords',
  userincomerecord: '/mine/userincomerecord',
  address: '/mine/address',
  addbankcard: '/mine/add-bank-card',
  addusdt: '/mine/add-usdt',
  agentdata: '/mine/pushdata',
  // Not spec screens: my commission (from the promotion data and the
  // income pages) and my creator earnings (from /myhome).
  commissions: '/mine/commissions',
  creatorearnings: '/mine/creatorearnings',
  shareyaoqing: '/mine/shareyaoqing',
  suggest: '/mine/suggest',
  minelogin: '/mine/login',
  mineforget: '/mine/forget',
  mineregister: '/mine/register',
}

const tabs = ['dark', 'discover', 'shortvideo', 'community', 'home', 'mine']

const Shell = () => null
const routeObjects = buildRoutes(Shell)

// leafName is the name of the deepest matched route, as the app sees it.
function leafName(routes: RouteObject[], path: string): string | undefined {
  const m = matchRoutes(routes, path)
  return (m?.[m.length - 1].route.handle as RouteHandle | undefined)?.name
}

function concrete(path: string): string {
  return path.replace(':id', '42').replace(':uid', '7')
}

describe('route table', () => {
  const table = flatRoutes()

  it('holds every spec route with its name and path, and nothing unnamed', () => {
    const got = Object.fromEntries(table.map((r) => [r.name, r.path]))
    expect(got).toEqual(spec)
  })

  it('has no duplicate names or paths', () => {
    expect(new Set(table.map((r) => r.name)).size).toBe(table.length)
    expect(new Set(table.map((r) => r.path)).size).toBe(table.length)
  })

  it('puts exactly the tab screens under mainView', () => {
    const main = appRoutes.find((r) => r.name === 'mainView')
    expect(main?.children?.map((c) => c.name).sort()).toEqual([...tabs].sort())
    expect(main?.layout).toBeTruthy()
  })

  it('resolves each spec path to the route of that name', () => {
    for (const [name, path] of Object.entries(spec)) {
      expect(leafName(routeObjects, concrete(path)), path).toBe(name)
    }
  })

  it('gives every route a page or a redirect', () => {
    for (const r of table) expect(Boolean(r.page) || Boolean(r.redirectTo), r.name).toBe(true)
  })

  it('wraps every page in its own error boundary, inside its layout', () => {
    for (const path of [...Object.values(spec).filter((p) => p !== '/main'), '/cj_activity']) {
      const m = matchRoutes(routeObjects, concrete(path))!
      const el = m[m.length - 1].route.element
      // element is <RouteNameContext.Provider><RouteBoundary><RoutePage/></RouteBoundary></...>
      const inner = isValidElement<{ children: unknown }>(el) ? el.props.children : null
      expect(isValidElement(inner) && inner.type, path).toBe(RouteBoundary)
      // Never the lazy itself as the boundary's child: two routes of one
      // shape share the boundary's fiber, and React resolves a new lazy
      // while reconciling its children, so a failed download would be the
      // boundary's own error and escape it.
      const page = isValidElement<{ children: unknown }>(inner) ? inner.props.children : null
      expect(isValidElement(page) && page.type, path).toBe(RoutePage)
    }
    // A tab page's boundary sits under the tab layout, not around it.
    const home = matchRoutes(routeObjects, '/home')!
    expect(home.length).toBe(3) // shell, tab layout, page
  })

  it('sends an unknown path to the not-found page', () => {
    expect(leafName(routeObjects, '/cj_activity')).toBe('notfound')
  })

  it('answers /main with a redirect to /home', () => {
    const m = matchRoutes(routeObjects, '/main')!
    const el = m[m.length - 1].route.element
    expect(isValidElement(el) && el.type).toBe(RedirectTo)
    expect(isValidElement<{ to: string }>(el) && el.props.to).toBe('/home')
  })

  it('routeNameAt, used by the navigation hook, names the same routes as the tree', () => {
    for (const path of Object.values(spec)) {
      expect(routeNameAt(concrete(path)), path).toBe(leafName(routeObjects, concrete(path)))
    }
    expect(routeNameAt('/detail/9/extra')).toBe('notfound')
  })

  it('routeNameAt matches as React Router does on the variants a link may carry', () => {
    const variants = (p: string) => [
      p,
      p + '/',
      p + '//',
      p.toUpperCase(),
      p + '/extra',
      '/' + p,
      p.replace(/\/([a-z])/, (_, c: string) => '/%' + c.charCodeAt(0).toString(16)),
      p.replace('42', '%E4%B8%AD'),
      p.replace('42', '%E0%A4%A'),
      p.replace('42', ''),
      p.slice(0, -1),
    ]
    const paths = [...Object.values(spec).map(concrete).flatMap(variants), '', 'home', '/x', '//', '///', '/home/search/', '/community/topic', '/mine/withdraw/detail/1']
    const differ = paths.map((p) => [p, routeNameAt(p), leafName(routeObjects, p) ?? 'notfound']).filter(([, a, b]) => a !== b)
    expect(differ).toEqual([])
  })

  it('names and describes every route in both catalogues', () => {
    for (const r of [...table, { name: 'notfound' }]) {
      for (const [lang, cat] of [['zh-CN', zhCN], ['en', en]] as const) {
        expect(cat[`route.${r.name}.title`], `${lang} route.${r.name}.title`).toBeTruthy()
        expect(cat[`route.${r.name}.desc`], `${lang} route.${r.name}.desc`).toBeTruthy()
      }
    }
  })
})
