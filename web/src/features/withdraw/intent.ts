// One idempotency key per intent (docs/api.md, *Idempotency*): a tap on
// 提现 and every retry of that tap (a timeout, a lost answer, a second tap
// while unsure) send the same key, so the server moves the money at most
// once. Changing what is asked (another amount or account) is a new intent
// and gets a new key, as does the next request after one succeeded.
import { newIdempotencyKey } from '@/lib/wallet'

export class Intent {
  private key: string | null = null
  private params = ''

  constructor(private readonly prefix: string) {}

  // keyFor returns the key for these parameters: the same one until they
  // change or done() is called.
  keyFor(params: unknown): string {
    const p = JSON.stringify(params)
    if (this.key == null || p !== this.params) {
      this.key = newIdempotencyKey(this.prefix)
      this.params = p
    }
    return this.key
  }

  // done: the intent succeeded; the next request is a new one.
  done(): void {
    this.key = null
  }
}
