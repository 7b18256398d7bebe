// POST /api/app/sms/captcha {mobile, type: 1, purpose}: send a code.
// bind and pwd codes need a registered session; forget is sent signed out.
import { api } from '@/lib/api'

export type CodePurpose = 'bind' | 'forget' | 'pwd'

export interface CodeSent {
  expiresIn: number // seconds
  resendIn: number // seconds before the number may get another
}

// Silent: the form shows the tip (a 429 says to wait) under the field.
export function sendCode(mobile: string, purpose: CodePurpose): Promise<CodeSent> {
  return api.post<CodeSent>('/api/app/sms/captcha', { mobile, type: 1, purpose }, { noToken: purpose === 'forget' })
}
