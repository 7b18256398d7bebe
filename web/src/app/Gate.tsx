// The platform gate (DESIGN departure 1). The remote configuration says
// which devices may use the app; the rest see a QR hand-off page or are sent
// to the operator's URL. A cached configuration decides at once on a return
// visit while a fresh copy loads behind it.
import { lazy, Suspense, useEffect, type ReactNode } from 'react'
import { useSource } from '@/features/config/api/get-source'
import { currentPlatform, gateDecision } from '@/lib/platform'
import { useConfigStore } from '@/stores/config'
import { StateView } from '@/components/StateView'
import { t } from '@/i18n'
import { dropFirstScreen } from './first-screen'

const HandOffPage = lazy(() => import('@/features/gate/HandOffPage'))

function Boot() {
  return <div className="prima-boot" aria-hidden="true" />
}

export function Gate({ children }: { children: ReactNode }) {
  const q = useSource()
  const cached = useConfigStore((s) => s.source)
  const setSource = useConfigStore((s) => s.setSource)
  useEffect(() => {
    if (q.data) setSource(q.data)
  }, [q.data, setSource])

  const source = q.data ?? cached
  const gate = source?.gate
  const decision = source ? gateDecision(gate?.mode, currentPlatform(), gate?.redirectURL) : null

  useEffect(() => {
    if (decision === 'redirect' && gate?.redirectURL) window.location.replace(gate.redirectURL)
    // The page the server drew is not what this device gets.
    if (decision === 'redirect' || decision === 'qr') dropFirstScreen()
  }, [decision, gate?.redirectURL])

  if (!source) {
    if (q.isError) {
      return (
        <main style={{ paddingTop: '20dvh' }}>
          <StateView
            kind="error"
            title={t('boot.failed')}
            error={q.error}
            onRetry={() => void q.refetch()}
          />
        </main>
      )
    }
    return <Boot />
  }
  if (decision === 'redirect') return <Boot />
  if (decision === 'qr') {
    return (
      <Suspense fallback={<Boot />}>
        <HandOffPage url={gate?.publicURL || window.location.origin} />
      </Suspense>
    )
  }
  return <>{children}</>
}
