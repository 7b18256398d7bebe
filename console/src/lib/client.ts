// The console's one client: createClient (api.ts) with the stored token.
// The app registers what a 401 and a step-up request do (app/App.tsx);
// until then a 401 only rejects and a step-up is refused.
import { createClient, type ApiError } from './api'
import { token } from './session-store'

let unauthorized: ((err: ApiError) => void) | null = null
let prompt: ((err: ApiError) => Promise<boolean>) | null = null

export function setUnauthorizedHandler(fn: ((err: ApiError) => void) | null): void {
  unauthorized = fn
}

export function setStepUpHandler(fn: ((err: ApiError) => Promise<boolean>) | null): void {
  prompt = fn
}

// shareStepUp: calls refused at the same moment share one prompt, so the
// operator types one code, not one per call.
export function shareStepUp(ask: (err: ApiError) => Promise<boolean>): (err: ApiError) => Promise<boolean> {
  let pending: Promise<boolean> | null = null
  return (err) => {
    pending ??= ask(err).finally(() => {
      pending = null
    })
    return pending
  }
}

const askOnce = shareStepUp((err) => (prompt ? prompt(err) : Promise.resolve(false)))

export const api = createClient({
  token,
  onUnauthorized: (err) => unauthorized?.(err),
  stepUp: askOnce,
})
