import { describe, expect, it } from 'vitest'
import { inTasks } from './tasks'

describe('inTasks', () => {
  it('runs each step in order, after a yield of its own', async () => {
    const log: string[] = []
    let yields = 0
    const next = async () => {
      yields++
      log.push(`yield ${yields}`)
    }
    await inTasks([() => log.push('a'), () => log.push('b'), () => log.push('c')], next)
    expect(log).toEqual(['yield 1', 'a', 'yield 2', 'b', 'yield 3', 'c'])
  })

  it('goes on past a step that throws, and reports it', async () => {
    const reported: unknown[] = []
    const orig = globalThis.reportError
    globalThis.reportError = (e: unknown) => void reported.push(e)
    try {
      const ran: string[] = []
      await inTasks(
        [
          () => {
            throw new Error('boom')
          },
          () => ran.push('after'),
        ],
        async () => {},
      )
      expect(ran).toEqual(['after'])
      expect(reported).toHaveLength(1)
      expect((reported[0] as Error).message).toBe('boom')
    } finally {
      globalThis.reportError = orig
    }
  })
})
