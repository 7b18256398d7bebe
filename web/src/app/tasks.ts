// Work split across the main thread's tasks. A phone's browser can paint,
// and answer a tap, only between tasks: a start-up that runs as one long
// task holds both for as long as it runs (Lighthouse counts each such
// task's time past 50 ms as blocking).

type Yielder = { yield?: () => Promise<void> }

// nextTask resolves in a new task: scheduler.yield() where the browser has
// it (the rest of the work keeps its place ahead of other queued tasks),
// else a zero timeout.
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: Yielder }).scheduler
  if (typeof scheduler?.yield === 'function') return scheduler.yield()
  return new Promise((resolve) => setTimeout(resolve, 0))
}

// inTasks runs the steps in order, each in a task of its own. A step that
// throws does not stop the ones after it (each is a separate part of the
// start-up); the error is reported as an uncaught one would be.
export async function inTasks(steps: readonly (() => void)[], next: () => Promise<void> = nextTask): Promise<void> {
  for (const step of steps) {
    await next()
    try {
      step()
    } catch (err) {
      reportError(err)
    }
  }
}

function reportError(err: unknown): void {
  if (typeof globalThis.reportError === 'function') globalThis.reportError(err)
  else setTimeout(() => { throw err })
}
