// Chooses the delivery lines once the app has started (spec §9; the logic
// is src/lib/lines.ts). The app starts on this page's origin, which has
// just served the page and so answers: starting on a line persisted last
// time could only be worse, since that line may have gone down meanwhile.
// Once domain/h5 has answered and the lines are checked, the API client
// moves to the chosen API line, images and videos to the chosen media
// lines (persisted in the config store for the next start), and lines
// that did not answer are reported once per page session.
import type { QueryClient } from '@tanstack/react-query'
import { api, APP_VERSION, setBaseURL } from '@/lib/api'
import { apiBase, chooseLines, LineReporter, type LineReport } from '@/lib/lines'
import { currentPlatform } from '@/lib/platform'
import { domainsQueryOptions } from '@/features/config/api/get-domains'
import { appNameOf, useConfigStore } from '@/stores/config'
import { useUserStore } from '@/stores/user'

// POST /api/app/report/error; failures are swallowed by the reporter.
const reporter = new LineReporter((body: LineReport) => api.post('/api/app/report/error', body, { public: true }))

export async function startLines(client: QueryClient): Promise<void> {
  let domains
  try {
    domains = await client.fetchQuery(domainsQueryOptions())
  } catch {
    return // this origin stays the line; the next start tries again
  }
  if (typeof location === 'undefined' || typeof fetch === 'undefined') return
  const choice = await chooseLines((url, init) => fetch(url, init), domains)
  if (choice.api) setBaseURL(apiBase(choice.api, location.origin))
  useConfigStore.getState().setLines({ api: choice.api, image: choice.image, video: choice.video })
  const config = useConfigStore.getState()
  await reporter.report(choice.failures, {
    appname: appNameOf(config.source) ?? 'Prima',
    appv: APP_VERSION,
    dev: currentPlatform(),
    userid: useUserStore.getState().user?.uid ?? null,
  })
}
