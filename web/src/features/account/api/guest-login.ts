// POST /api/app/mine/login: guest login by device id. Creates or resumes the
// account bound to this browser's device id.
import { useMutation } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { deviceId } from '@/lib/device'
import { currentPlatform } from '@/lib/platform'
import type { UserInfo } from '@/lib/user'

export interface GuestLoginResult {
  token: string
  isNew: boolean
  user: UserInfo
}

// cutInfos carries clipboard invite info in the observed client; Prima does
// not read the clipboard, so it is always empty. No token goes with it: the
// device id is the credential, and an old revoked token must not turn this
// into an "unauthorized" answer. Silent: the splash shows its own error.
export function guestLogin(): Promise<GuestLoginResult> {
  return api.post<GuestLoginResult>(
    '/api/app/mine/login',
    { devID: deviceId(), sysType: currentPlatform(), cutInfos: '' },
    { silent: true, noToken: true },
  )
}

export function useGuestLogin() {
  return useMutation({ mutationFn: guestLogin })
}
