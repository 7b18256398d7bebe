// The one route table of the web app: every screen of spec §2 with the
// spec's name and path. A new screen is a page file in its feature folder
// plus one line here. Each page module loads on first visit, so the home
// route's first download holds only the shell and the home page.
import type { ComponentType, ReactElement } from 'react'
import { Navigate, useLocation, type RouteObject } from 'react-router'
import { RouteNameContext } from '@/components/routeName'
import { RouteBoundary } from './RouteErrorBoundary'
import { RoutePage, type PageLoader } from './pages'
import TabLayout from './TabLayout'

export type { PageLoader }

export interface AppRoute {
  name: string
  path: string
  page?: PageLoader
  // redirectTo answers the path with a redirect, keeping the query string.
  redirectTo?: string
  // layout wraps the children (the tab bar of mainView); the children keep
  // their own absolute paths, as the spec lists them. It is part of the
  // shell, not lazy: the tab bar must not wait for a second download.
  layout?: ComponentType
  children?: AppRoute[]
}

// RouteHandle is what every route object carries: the route's name.
export interface RouteHandle {
  name: string
}

// Splash composes two features (the guest sign-in and home's first data),
// so it belongs to the app rather than to either.
const splash: PageLoader = () => import('./SplashPage')
const home: PageLoader = () => import('@/features/catalog/pages/HomePage')
const mine: PageLoader = () => import('@/features/account/pages/MinePage')
const login: PageLoader = () => import('@/features/account/pages/LoginPage')
const register: PageLoader = () => import('@/features/account/pages/RegisterPage')
const setting: PageLoader = () => import('@/features/account/pages/SettingPage')
const accountsafe: PageLoader = () => import('@/features/account/pages/AccountSafePage')
const bindphone: PageLoader = () => import('@/features/account/pages/BindPhonePage')
const mineforget: PageLoader = () => import('@/features/account/pages/ForgetPage')
const shortvideo: PageLoader = () => import('@/features/shortvideo/pages/ShortVideoPage')
const sourceshortvideo: PageLoader = () => import('@/features/shortvideo/pages/SourceShortVideoPage')
const dark: PageLoader = () => import('@/features/catalog/pages/DarkPage')
const discover: PageLoader = () => import('@/features/catalog/pages/DiscoverPage')
const source: PageLoader = () => import('@/features/catalog/pages/SourcePage')
const detail: PageLoader = () => import('@/features/video/pages/DetailPage')
const userlike: PageLoader = () => import('@/features/video/pages/UserLikePage')
const userfav: PageLoader = () => import('@/features/video/pages/UserFavPage')
const userbroswer: PageLoader = () => import('@/features/video/pages/UserBrowserPage')
const userbuy: PageLoader = () => import('@/features/wallet/pages/UserBuyPage')
const gallery: PageLoader = () => import('@/features/gallery/pages/GalleryPage')
const galleryVip: PageLoader = () => import('@/features/gallery/pages/GalleryVipPage')
const publishvideo: PageLoader = () => import('@/app/PublishVideoRoute')
const publishpicture: PageLoader = () => import('@/features/community/publish/pages/PublishPicturePage')
const publishrule: PageLoader = () => import('@/features/community/publish/pages/PublishRulePage')
const publisharticle: PageLoader = () => import('@/features/community/publish/pages/PublishArticlePage')
const galleryCategory: PageLoader = () => import('@/features/gallery/pages/GalleryCategoryPage')
const vipcenter: PageLoader = () => import('@/features/wallet/pages/VipCenterPage')
const usercoinchongzhi: PageLoader = () => import('@/features/wallet/pages/TopUpPage')
const backpack: PageLoader = () => import('@/features/wallet/pages/BackpackPage')
const userfulitask: PageLoader = () => import('@/features/welfare/pages/WelfarePage')
const duihuancode: PageLoader = () => import('@/features/codes/pages/RedeemCodePage')
const withdraw: PageLoader = () => import('@/features/withdraw/pages/WithdrawPage')
const withdrawdetail: PageLoader = () => import('@/features/withdraw/pages/WithdrawDetailPage')
const address: PageLoader = () => import('@/features/withdraw/pages/AddressPage')
const addbankcard: PageLoader = () => import('@/features/withdraw/pages/AddBankCardPage')
const addusdt: PageLoader = () => import('@/features/withdraw/pages/AddUsdtPage')
const userrecords: PageLoader = () => import('@/features/withdraw/pages/UserBuyRecordPage')
const usercoinrecords: PageLoader = () => import('@/features/withdraw/pages/CoinRecordsPage')
const userincomerecord: PageLoader = () => import('@/features/withdraw/pages/IncomeRecordPage')
const usershouyimx: PageLoader = () => import('@/features/withdraw/pages/IncomeDetailPage')
const myhome: PageLoader = () => import('@/features/profile/pages/MyHomePage')
const usercenter: PageLoader = () => import('@/features/profile/pages/UserCenterPage')
const userguanzhu: PageLoader = () => import('@/features/profile/pages/UserGuanzhuPage')
const profileedit: PageLoader = () => import('@/features/profile/pages/ProfileEditPage')
const messagecenter: PageLoader = () => import('@/features/messages/pages/MessageCenterPage')
const message: PageLoader = () => import('@/features/messages/pages/ChatPage')
// Support and information (features/support).
const help: PageLoader = () => import('@/features/support/pages/HelpPage')
const groups: PageLoader = () => import('@/features/support/pages/GroupsPage')
const settled: PageLoader = () => import('@/features/support/pages/SettledPage')
const applicationcenter: PageLoader = () => import('@/features/support/pages/ApplicationCenterPage')
const applicationdownload: PageLoader = () => import('@/features/support/pages/ApplicationDownloadPage')
const suggest: PageLoader = () => import('@/features/support/pages/SuggestPage')
const accountcode: PageLoader = () => import('@/features/account/pages/AccountCodePage')
const shareyaoqing: PageLoader = () => import('@/features/invite/pages/ShareInvitePage')
const yaoqingcode: PageLoader = () => import('@/features/invite/pages/InviteCodePage')
const agentdata: PageLoader = () => import('@/features/invite/pages/InviteDataPage')
const usershareshenqing: PageLoader = () => import('@/features/invite/pages/PromoterPage')
const commissions: PageLoader = () => import('@/features/invite/pages/CommissionsPage')
const creatorearnings: PageLoader = () => import('@/features/profile/pages/CreatorEarningsPage')
const postdetail: PageLoader = () => import('@/features/community/detail/pages/PostDetailPage')
// Community feeds (features/community): the tab, topic pages, my topics.
const community: PageLoader = () => import('@/features/community/pages/CommunityPage')
const topic: PageLoader = () => import('@/features/community/pages/TopicPage')
const usertopic: PageLoader = () => import('@/features/community/pages/UserTopicPage')
// Search (features/search); results and more compose the community's card (src/app).
const search: PageLoader = () => import('@/features/search/pages/SearchPage')
const searchresult: PageLoader = () => import('@/app/SearchResultRoute')
const searchmore: PageLoader = () => import('@/app/SearchMoreRoute')
// The page of a path outside the table (notFound below).
const soon: PageLoader = () => import('@/components/ComingSoon')

export const appRoutes: AppRoute[] = [
  { name: 'splash', path: '/', page: splash },
  {
    name: 'mainView',
    path: '/main',
    redirectTo: '/home',
    layout: TabLayout,
    children: [
      { name: 'dark', path: '/dark', page: dark },
      { name: 'discover', path: '/discover', page: discover },
      { name: 'shortvideo', path: '/shortvideo', page: shortvideo },
      { name: 'community', path: '/community', page: community },
      { name: 'home', path: '/home', page: home },
      { name: 'mine', path: '/mine', page: mine },
    ],
  },
  { name: 'detail', path: '/detail/:id', page: detail },
  { name: 'topic', path: '/community/topic/:id', page: topic },
  { name: 'postdetail', path: '/cdetail/:id', page: postdetail },
  { name: 'message', path: '/message/:uid', page: message },
  { name: 'publishpicture', path: '/community/publishpicture', page: publishpicture },
  { name: 'publishrule', path: '/community/publish/rule', page: publishrule },
  { name: 'publishvideo', path: '/community/publishvideo', page: publishvideo },
  { name: 'publisharticle', path: '/community/publisharticle', page: publisharticle },
  { name: 'search', path: '/search', page: search },
  { name: 'searchresult', path: '/search/result', page: searchresult },
  { name: 'searchmore', path: '/search/more', page: searchmore },
  { name: 'homesearch', path: '/home/search', page: search },
  { name: 'usercenter', path: '/usercenter/:uid', page: usercenter },
  { name: 'usercentermy', path: '/myhome', page: myhome },
  { name: 'gallery', path: '/gallery/:id', page: gallery },
  { name: 'galleryVip', path: '/galleryVip', page: galleryVip },
  { name: 'galleryCategory', path: '/galleryCategory', page: galleryCategory },
  { name: 'sourceshortvideo', path: '/sourceshortvideo', page: sourceshortvideo },
  { name: 'source', path: '/source', page: source },
  // Account area.
  { name: 'setting', path: '/mine/setting', page: setting },
  { name: 'accountsafe', path: '/mine/accountsafe', page: accountsafe },
  { name: 'bindphone', path: '/mine/bindphone', page: bindphone },
  { name: 'accountcode', path: '/mine/accountcode', page: accountcode },
  { name: 'messagecenter', path: '/mine/message', page: messagecenter },
  { name: 'userbroswer', path: '/mine/userbroswer', page: userbroswer },
  { name: 'userbuy', path: '/mine/userbuy', page: userbuy },
  { name: 'backpack', path: '/mine/backpack', page: backpack }, // not in the spec: the coupon backpack
  { name: 'userfav', path: '/mine/userfav', page: userfav },
  { name: 'userlike', path: '/mine/userlike', page: userlike },
  { name: 'userguanzhu', path: '/mine/userguanzhu', page: userguanzhu }, // ?tab=follow|fans&uid=
  { name: 'profileedit', path: '/mine/profile', page: profileedit }, // not in the spec: editing my profile
  { name: 'usertopic', path: '/mine/usertopic', page: usertopic },
  { name: 'usershouyimx', path: '/mine/usershouyimx', page: usershouyimx },
  { name: 'help', path: '/mine/help', page: help },
  { name: 'yaoqingcode', path: '/mine/yaoqingcode', page: yaoqingcode },
  { name: 'duihuancode', path: '/mine/duihuancode', page: duihuancode },
  { name: 'groups', path: '/mine/groups', page: groups },
  { name: 'settled', path: '/mine/settled', page: settled },
  { name: 'applicationcenter', path: '/mine/applicationcenter', page: applicationcenter },
  { name: 'applicationdownload', path: '/mine/applicationdownload', page: applicationdownload },
  { name: 'userfulitask', path: '/mine/userfulitask', page: userfulitask },
  { name: 'usercoinchongzhi', path: '/mine/usercoinchongzhi', page: usercoinchongzhi },
  { name: 'usershareshenqing', path: '/mine/usershareshenqing', page: usershareshenqing },
  { name: 'vipcenter', path: '/mine/vipcenter', page: vipcenter },
  { name: 'withdraw', path: '/mine/withdraw', page: withdraw },
  { name: 'withdrawdetail', path: '/mine/withdraw/detail', page: withdrawdetail },
  { name: 'userrecords', path: '/mine/userbuyrecord', page: userrecords },
  { name: 'usercoinrecords', path: '/mine/usercoinrecords', page: usercoinrecords },
  { name: 'userincomerecord', path: '/mine/userincomerecord', page: userincomerecord },
  { name: 'address', path: '/mine/address', page: address }, // ?type=
  { name: 'addbankcard', path: '/mine/add-bank-card', page: addbankcard },
  { name: 'addusdt', path: '/mine/add-usdt', page: addusdt },
  { name: 'agentdata', path: '/mine/pushdata', page: agentdata }, // ?type=
  { name: 'commissions', path: '/mine/commissions', page: commissions }, // not in the spec: my commission, ?state=
  { name: 'creatorearnings', path: '/mine/creatorearnings', page: creatorearnings }, // not in the spec: my creator earnings
  { name: 'shareyaoqing', path: '/mine/shareyaoqing', page: shareyaoqing }, // ?type=
  { name: 'suggest', path: '/mine/suggest', page: suggest },
  { name: 'minelogin', path: '/mine/login', page: login },
  { name: 'mineforget', path: '/mine/forget', page: mineforget },
  { name: 'mineregister', path: '/mine/register', page: register },
]

// notFound answers any path outside the table (e.g. an in-app link to a
// screen this build does not know).
export const notFound: AppRoute = { name: 'notfound', path: '*', page: soon }

// flatRoutes lists every route of the table, parents before children.
export function flatRoutes(routes: AppRoute[] = appRoutes): AppRoute[] {
  return routes.flatMap((r) => [r, ...flatRoutes(r.children ?? [])])
}

// routeNameAt is the name of the route a pathname shows (spec names:
// 'detail', 'home', ...), for the navigation hook and the start-up.
//
// It matches as React Router does (the tree built below; routes.test.ts
// holds the two equal over every path of the table and their variants)
// without its cost: matchRoutes flattens, ranks and compiles a regular
// expression for every route of the table on each call, several
// milliseconds of a slow phone's start-up and of every navigation. Here
// each path is split once. The rules kept: segments compare without case
// after percent-decoding, trailing slashes are ignored, a :param takes any
// one non-empty segment, and of the routes that match, the one with more
// fixed segments wins, then the earlier in the table; else notFound.
interface Pattern {
  name: string
  segments: (string | null)[] // a fixed segment in lower case, or null for a :param
  fixed: number
}

const patterns: Pattern[] = flatRoutes().map((r) => {
  const segments = (r.path === '/' ? [] : r.path.slice(1).split('/')).map((s) => (s.startsWith(':') ? null : s.toLowerCase()))
  return { name: r.name, segments, fixed: segments.filter((s) => s !== null).length }
})

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s)
  } catch {
    return s
  }
}

export function routeNameAt(pathname: string): string {
  if (pathname !== '' && !pathname.startsWith('/')) return notFound.name // '' is '/'
  const trimmed = pathname.replace(/\/+$/, '')
  const parts = trimmed === '' ? [] : trimmed.slice(1).split('/').map((s) => decodeSegment(s).toLowerCase())
  let best: Pattern | null = null
  for (const p of patterns) {
    if (p.segments.length !== parts.length || (best && p.fixed <= best.fixed)) continue
    if (p.segments.every((s, i) => parts[i] !== '' && (s === null || s === parts[i]))) best = p
  }
  return best?.name ?? notFound.name
}

// preloadRoute starts downloading the page a pathname shows before React
// gets to render it (the router waits on the platform gate first); splash
// also fetches home, where it goes next. React.lazy's own import() of the
// same module then resolves from the module cache.
export function preloadRoute(pathname: string): void {
  const name = routeNameAt(pathname)
  const r = [...flatRoutes(), notFound].find((x) => x.name === name)
  void r?.page?.().catch(() => undefined)
  if (name === 'splash') void home().catch(() => undefined)
}

// RedirectTo answers a path with another, keeping the query string.
export function RedirectTo({ to }: { to: string }) {
  const { search } = useLocation()
  return <Navigate to={{ pathname: to, search }} replace />
}

function element(r: AppRoute): ReactElement {
  if (r.redirectTo) return <RedirectTo to={r.redirectTo} />
  // Each page has its own error boundary, inside whatever layout holds it
  // (the tab bar stays when a tab's page fails).
  return (
    <RouteNameContext.Provider value={r.name}>
      <RouteBoundary>
        <RoutePage load={r.page!} />
      </RouteBoundary>
    </RouteNameContext.Provider>
  )
}

function toRouteObject(r: AppRoute): RouteObject[] {
  const handle: RouteHandle = { name: r.name }
  const self: RouteObject = { path: r.path, handle, element: element(r) }
  if (!r.layout) return [self]
  // A layout route has no path of its own, so children with absolute paths
  // (/home, /mine) can sit under it next to the layout's own path (/main).
  const Layout = r.layout
  return [{ id: r.name, handle, element: <Layout />, children: [self, ...(r.children ?? []).flatMap(toRouteObject)] }]
}

// buildRoutes turns the table into react-router route objects under one
// root element (the app shell), for useRoutes.
export function buildRoutes(Root: ComponentType): RouteObject[] {
  return [{ element: <Root />, children: [...appRoutes, notFound].flatMap(toRouteObject) }]
}
