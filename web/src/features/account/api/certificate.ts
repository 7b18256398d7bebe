// The account certificate (docs/api.md, *Account certificate*):
// GET mine/certificate/qr and POST mine/certificate/reset for its owner;
// POST mine/qrcode/extract (a saved picture) and POST mine/login with qrCnt
// for signing in with it on another device.
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { deviceId } from '@/lib/device'
import { currentPlatform } from '@/lib/platform'
import type { CertCredential } from '@/features/account/certificate'
import type { SessionResult } from './login-h5'

export interface Certificate extends CertCredential {
  createdAt: string
}

// The token is part of the key: another session's certificate never shows.
export const certificateKey = (token: string | null) => ['mine', 'certificate', token] as const

export function getCertificate(): Promise<Certificate> {
  return api.get<Certificate>('/api/app/mine/certificate/qr')
}

export function certificateQueryOptions(token: string | null) {
  // Fetched once per visit: the credential only changes by a reset, which
  // writes the new one into the cache itself.
  return queryOptions({ queryKey: certificateKey(token), queryFn: getCertificate, enabled: token != null, staleTime: Infinity })
}

export function useCertificate(token: string | null) {
  return useQuery(certificateQueryOptions(token))
}

export function resetCertificate(): Promise<Certificate> {
  return api.post<Certificate>('/api/app/mine/certificate/reset', {}, { toast: true })
}

// Sent without the token: the picture is not about the current session,
// and a refused certificate answers 401, which must not end it. Silent:
// the login page shows the server's tip itself.
export function extractCertificate(file: Blob, name = 'certificate.png'): Promise<CertCredential> {
  const form = new FormData()
  form.append('file', file, name)
  return api.post<CertCredential>('/api/app/mine/qrcode/extract', form, { noToken: true })
}

export function certificateLogin(cred: CertCredential): Promise<SessionResult> {
  return api.post<SessionResult>(
    '/api/app/mine/login',
    { devID: deviceId(), sysType: currentPlatform(), cutInfos: '', uid: cred.uid, qrCnt: cred.qrCnt },
    { noToken: true },
  )
}
