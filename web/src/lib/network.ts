// Is the failure the network's? A request that got no answer (ApiError
// kind 'network') or a browser that says it is offline means the user
// should see "you are offline" with a retry, not a server's error; when the
// connection comes back the app retries by itself (see onOnline).
import { ApiError } from './api'

export function browserOnline(): boolean {
  return typeof navigator === 'undefined' || navigator.onLine !== false
}

// isOfflineError: the error came from no connection. online is the
// browser's flag (navigator.onLine); false decides it whatever the error.
export function isOfflineError(err: unknown, online = browserOnline()): boolean {
  if (!online) return true
  if (err instanceof ApiError) return err.kind === 'network'
  // A page's code that failed to download (fetch of a dynamic import), or
  // its stylesheet (Vite's loader).
  if (err instanceof Error && /^Unable to preload CSS/.test(err.message)) return true
  return err instanceof TypeError && /fetch|network|load|import/i.test(err.message)
}

// isChunkLoadError: a lazily loaded page's code could not be fetched or
// evaluated (the network dropped, or a deploy replaced the file), or one of
// its stylesheets could not (Vite's loader fails the import then). Loading
// it again fixes the first case; only a fresh load of the app the second.
export function isChunkLoadError(err: unknown): boolean {
  const m = err instanceof Error ? err.message : String(err)
  return /dynamically imported module|Importing a module script failed|error loading dynamically|Failed to fetch|Unable to preload CSS/i.test(m)
}

// onOnline calls fn each time the browser reports the connection is back;
// it returns the unsubscribe.
export function onOnline(fn: () => void): () => void {
  if (typeof window === 'undefined') return () => {}
  window.addEventListener('online', fn)
  return () => window.removeEventListener('online', fn)
}

// subscribeNetwork / browserOnline make a useSyncExternalStore pair.
export function subscribeNetwork(cb: () => void): () => void {
  if (typeof window === 'undefined') return () => {}
  window.addEventListener('online', cb)
  window.addEventListener('offline', cb)
  return () => {
    window.removeEventListener('online', cb)
    window.removeEventListener('offline', cb)
  }
}
