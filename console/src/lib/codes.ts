// What an operator types as a second factor: a 6-digit TOTP code or one of
// the ten recovery codes (xxxx-xxxx, lower-case letters and digits).
// normalizeCode tidies what was typed or pasted (spaces, a missing dash,
// capitals) and says which it is; null when it is neither, so the form
// says so before a request is spent on it (sign-in tries are limited).
export type CodeKind = 'totp' | 'recovery'

export function normalizeCode(input: string): { kind: CodeKind; code: string } | null {
  const s = input.replace(/[\s\u3000]/g, '')
  if (/^\d{6}$/.test(s)) return { kind: 'totp', code: s }
  const m = /^([a-z0-9]{4})-?([a-z0-9]{4})$/i.exec(s)
  if (m) return { kind: 'recovery', code: `${m[1]}-${m[2]}`.toLowerCase() }
  return null
}

// recoveryFile is the text file an operator downloads at enrolment.
export function recoveryFile(account: string, codes: string[], at: Date): string {
  return [
    `Prima operator console — recovery codes for ${account}`,
    `Prima 运营后台恢复码（${account}），生成于 ${at.toISOString()}`,
    'Each code works once in place of the authenticator code. 每个恢复码只能使用一次。',
    '',
    ...codes,
    '',
  ].join('\n')
}
