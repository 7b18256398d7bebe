// Catches a page that fails to render or whose code fails to download (a
// deploy replaced the chunk, the network dropped): a reload fixes both.
// Moving to another page (a new resetKey) clears the error.
import { Component, type ReactNode } from 'react'
import { StateView } from '@/components/StateView'
import { t } from '@/i18n'

interface Props {
  resetKey: string
  children: ReactNode
}

interface State {
  failed: boolean
  key: string
}

export class RouteErrorBoundary extends Component<Props, State> {
  state: State = { failed: false, key: this.props.resetKey }

  static getDerivedStateFromError(): Partial<State> {
    return { failed: true }
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey !== state.key ? { failed: false, key: props.resetKey } : null
  }

  componentDidCatch(err: unknown) {
    if (import.meta.env.DEV) console.error(err)
  }

  render() {
    if (!this.state.failed) return this.props.children
    return (
      <div style={{ paddingTop: 'var(--prima-safe-top)' }}>
        <StateView kind="error" title={t('error.page')} message={t('error.pageHint')} onRetry={() => window.location.reload()} />
      </div>
    )
  }
}
