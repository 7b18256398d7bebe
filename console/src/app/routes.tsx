// The console's one route table, under /admin (the router's basename). Every
// page is its own lazily loaded chunk, and so is the shell (Signed), which checks the session
// and the role's sections before any of them shows.
import type { RouteObject } from 'react-router'
import { Spin } from 'antd'
import { NotFound, RouteError } from './RouteError'

export const routes: RouteObject[] = [
  { path: '/login', lazy: async () => ({ Component: (await import('@/features/auth/LoginPage')).LoginPage }), errorElement: <RouteError />, hydrateFallbackElement: <Spin fullscreen /> },
  {
    path: '/',
    // The shell (menu, header, drawers) is a chunk of its own, so the
    // sign-in page does not load it.
    lazy: async () => ({ Component: (await import('./Signed')).Signed }),
    errorElement: <RouteError />,
    // shown while the first page's lazy chunk loads
    hydrateFallbackElement: <Spin fullscreen />,
    children: [
      { index: true, lazy: async () => ({ Component: (await import('@/features/dashboard/DashboardPage')).DashboardPage }) },
      { path: 'content/modules', lazy: async () => ({ Component: (await import('@/features/content/ModulesPage')).ModulesPage }) },
      { path: 'content/videos', lazy: async () => ({ Component: (await import('@/features/content/VideosPage')).VideosPage }) },
      // issue 20: catalog
      { path: 'content/galleries', lazy: async () => ({ Component: (await import('@/features/catalog/GalleriesPage')).GalleriesPage }) },
      { path: 'content/tags', lazy: async () => ({ Component: (await import('@/features/catalog/TagsPage')).TagsPage }) },
      { path: 'content/announcements', lazy: async () => ({ Component: (await import('@/features/catalog/AnnouncementsPage')).AnnouncementsPage }) },
      { path: 'content/ads', lazy: async () => ({ Component: (await import('@/features/catalog/AdsPage')).AdsPage }) },
      { path: 'content/presale', lazy: async () => ({ Component: (await import('@/features/catalog/PresalePage')).PresalePage }) },
      { path: 'content/source', lazy: async () => ({ Component: (await import('@/features/catalog/SourcePage')).SourcePage }) },
      { path: 'content/help', lazy: async () => ({ Component: (await import('@/features/catalog/HelpPage')).HelpPage }) },
      { path: 'content/lines', lazy: async () => ({ Component: (await import('@/features/catalog/LinesPage')).LinesPage }) },
      { path: 'content/apps', lazy: async () => ({ Component: (await import('@/features/catalog/AppClicksPage')).AppClicksPage }) },
      { path: 'content/shorts', lazy: async () => ({ Component: (await import('@/features/content/ShortsPage')).ShortsPage }) },
      { path: 'people', lazy: async () => ({ Component: (await import('@/features/people/PeoplePage')).PeoplePage }) },
      { path: 'people/applications', lazy: async () => ({ Component: (await import('@/features/people/ApplicationsPage')).ApplicationsPage }) },
      { path: 'people/feedback', lazy: async () => ({ Component: (await import('@/features/people/FeedbackPage')).FeedbackPage }) },
      { path: 'moderation/queue', lazy: async () => ({ Component: (await import('@/features/moderation/QueuePage')).QueuePage }) },
      { path: 'moderation/comments', lazy: async () => ({ Component: (await import('@/features/moderation/CommentsPage')).CommentsPage }) },
      { path: 'moderation/reports', lazy: async () => ({ Component: (await import('@/features/moderation/ReportsPage')).ReportsPage }) },
      { path: 'moderation/words', lazy: async () => ({ Component: (await import('@/features/moderation/WordsPage')).WordsPage }) },
      // issue 21: finance
      { path: 'money/packages', lazy: async () => ({ Component: (await import('@/features/finance/PackagesPage')).PackagesPage }) },
      { path: 'money/vip', lazy: async () => ({ Component: (await import('@/features/finance/VipPage')).VipPage }) },
      { path: 'money/coupons', lazy: async () => ({ Component: (await import('@/features/finance/CouponsPage')).CouponsPage }) },
      { path: 'money/providers', lazy: async () => ({ Component: (await import('@/features/finance/ProvidersPage')).ProvidersPage }) },
      { path: 'money/commission', lazy: async () => ({ Component: (await import('@/features/finance/CommissionPage')).CommissionPage }) },
      { path: 'money/promoters', lazy: async () => ({ Component: (await import('@/features/finance/PromotersPage')).PromotersPage }) },
      { path: 'money/reconciliation', lazy: async () => ({ Component: (await import('@/features/finance/ReconciliationPage')).ReconciliationPage }) },
      // issue 22: backups
      { path: 'backups', lazy: async () => ({ Component: (await import('@/features/backups/BackupsPage')).BackupsPage }) },
      // issue 21: growth
      { path: 'growth/checkin', lazy: async () => ({ Component: (await import('@/features/growth/CheckinPage')).CheckinPage }) },
      { path: 'growth/tasks', lazy: async () => ({ Component: (await import('@/features/growth/TasksPage')).TasksPage }) },
      { path: 'growth/prizes', lazy: async () => ({ Component: (await import('@/features/growth/PrizesPage')).PrizesPage }) },
      { path: 'growth/codes', lazy: async () => ({ Component: (await import('@/features/growth/CodesPage')).CodesPage }) },
      { path: 'growth/invite', lazy: async () => ({ Component: (await import('@/features/growth/InvitePage')).InvitePage }) },
      { path: 'growth/search', lazy: async () => ({ Component: (await import('@/features/growth/SearchPage')).SearchPage }) },
      // issue 21: money
      { path: 'money/orders', lazy: async () => ({ Component: (await import('@/features/money/OrdersPage')).OrdersPage }) },
      { path: 'money/withdrawals', lazy: async () => ({ Component: (await import('@/features/money/WithdrawalsPage')).WithdrawalsPage }) },
      { path: 'money/wallet', lazy: async () => ({ Component: (await import('@/features/money/WalletPage')).WalletPage }) },
      // issue 21: stats — each page its own chunk; ECharts (features/stats/Chart) loads only with them
      { path: 'stats', lazy: async () => ({ Component: (await import('@/features/stats/OverviewPage')).OverviewPage }) },
      { path: 'stats/revenue', lazy: async () => ({ Component: (await import('@/features/stats/RevenuePage')).RevenuePage }) },
      { path: 'stats/users', lazy: async () => ({ Component: (await import('@/features/stats/UsersPage')).UsersPage }) },
      { path: 'stats/content', lazy: async () => ({ Component: (await import('@/features/stats/ContentPage')).ContentPage }) },
      { path: 'audit', lazy: async () => ({ Component: (await import('@/features/audit/AuditPage')).AuditPage }) },
      { path: 'operators', lazy: async () => ({ Component: (await import('@/features/operators/OperatorsPage')).OperatorsPage }) },
      { path: 'security', lazy: async () => ({ Component: (await import('@/features/security/SecurityPage')).SecurityPage }) },
      { path: '*', element: <NotFound /> },
    ],
  },
]
