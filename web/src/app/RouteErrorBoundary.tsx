// Catches a page that fails to render or whose code fails to download.
// Every route has its own (routes.tsx wraps each page in one), inside the
// tab layout's outlet, so a failing page never takes the tab bar or the
// shell with it. Retry clears the error and fetches again what failed; a
// page whose code could not be loaded loads it again in place (pages.tsx
// retryPages), never reloading the document: offline, a reload would land
// on the browser's own offline page. Only code that fails again while the
// browser says it is online (a deploy replaced the file, which only a
// fresh page knows) makes the next retry reload. Moving to another page (a
// new resetKey) or the connection coming back also clears the error.
import { Component, type ReactNode } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { useLocation } from 'react-router'
import { StateView } from '@/components/StateView'
import { t } from '@/i18n'
import { browserOnline, isChunkLoadError, onOnline } from '@/lib/network'
import { retryPages } from './pages'

interface Props {
  resetKey: string
  onReset: () => void
  children: ReactNode
}

interface State {
  error: unknown
  failed: boolean
  key: string
}

export class RouteErrorBoundary extends Component<Props, State> {
  state: State = { error: null, failed: false, key: this.props.resetKey }
  private unsubscribe: (() => void) | null = null
  // The page's code was loaded again in place and failed again while the
  // browser said it was online: the next retry reloads.
  private reloadNext = false
  private retriedInPlace = false

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { failed: true, error }
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey !== state.key ? { failed: false, error: null, key: props.resetKey } : null
  }

  componentDidMount() {
    // Back online: try again (a page whose code failed to download is
    // loaded afresh, which is what retry does for it).
    this.unsubscribe = onOnline(() => {
      if (this.state.failed) this.retry()
    })
  }

  componentWillUnmount() {
    this.unsubscribe?.()
  }

  componentDidUpdate(prev: Props) {
    if (prev.resetKey !== this.props.resetKey) this.reloadNext = this.retriedInPlace = false
  }

  componentDidCatch(err: unknown) {
    if (import.meta.env.DEV) console.error(err)
    if (isChunkLoadError(err) && this.retriedInPlace && browserOnline()) this.reloadNext = true
  }

  retry = () => {
    if (isChunkLoadError(this.state.error)) {
      if (this.reloadNext) {
        window.location.reload()
        return
      }
      this.retriedInPlace = true
      retryPages()
    }
    this.props.onReset()
    this.setState({ failed: false, error: null })
  }

  render() {
    if (!this.state.failed) return this.props.children
    return (
      <main style={{ paddingTop: 'var(--prima-safe-top)' }} data-testid="route-error">
        <StateView kind="error" title={t('error.page')} message={t('error.pageHint')} error={this.state.error} onRetry={this.retry} />
      </main>
    )
  }
}

// RouteBoundary is the boundary as routes use it: keyed by the path, and a
// retry that also refetches every query on screen that failed.
export function RouteBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation()
  const client = useQueryClient()
  const onReset = () => void client.refetchQueries({ type: 'active', predicate: (q) => q.state.status === 'error' })
  return (
    <RouteErrorBoundary resetKey={pathname} onReset={onReset}>
      {children}
    </RouteErrorBoundary>
  )
}
