// POST /api/app/mine/login: guest login by device id. Creates or resumes the
// account bound to this browser's device id.
import { useMutation } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { deviceId } from '@/lib/device'
import { forgetPendingInvite, pendingInviteText } from '@/lib/invite'
import { currentPlatform } from '@/lib/platform'
import type { UserInfo } from '@/lib/user'

export interface GuestLoginResult {
  token: string
  isNew: boolean
  user: UserInfo
}

// cutInfos carries clipboard invite info in the observed client; Prima does
// not read the clipboard: it sends the code of the invite link the app was
// opened with (lib/invite), which binds a new guest to its inviter. No token goes with it: the
// device id is the credential, and an old revoked token must not turn this
// into an "unauthorized" answer. Silent: the splash shows its own error.
export function guestLogin(): Promise<GuestLoginResult> {
  return api.post<GuestLoginResult>(
    '/api/app/mine/login',
    { devID: deviceId(), sysType: currentPlatform(), cutInfos: pendingInviteText() },
    { noToken: true },
  ).then((r) => {
    forgetPendingInvite()
    return r
  })
}

export function useGuestLogin() {
  return useMutation({ mutationFn: guestLogin })
}
