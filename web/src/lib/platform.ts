// Platform detection and the platform gate (DESIGN departure 1). The
// observed client sent every non-iOS device away; Prima makes that an
// operator setting: off lets everyone in, mobile lets phones and tablets in,
// ios lets only iOS in. A gated device is redirected when the operator set
// a URL, otherwise it sees a QR code to open the app on a phone.

export type Platform = 'ios' | 'android' | 'pc'
export type GateMode = 'off' | 'mobile' | 'ios'
export type GateDecision = 'pass' | 'qr' | 'redirect'

export function detectPlatform(ua: string | null | undefined, maxTouchPoints = 0): Platform {
  const s = ua ?? ''
  if (/iPhone|iPad|iPod/.test(s)) return 'ios'
  // iPadOS 13+ Safari asks for desktop sites by default and then reports a
  // Mac; only the touch screen gives it away (Macs report 0 touch points).
  if (/Macintosh/.test(s) && maxTouchPoints > 1) return 'ios'
  // HarmonyOS phones (OpenHarmony/ArkWeb) no longer say Android; for the
  // gate they are the same kind of device.
  if (/Android|OpenHarmony|HarmonyOS/i.test(s)) return 'android'
  return 'pc'
}

// currentPlatform reads the running browser (pc outside one).
export function currentPlatform(): Platform {
  if (typeof navigator === 'undefined') return 'pc'
  return detectPlatform(navigator.userAgent, navigator.maxTouchPoints ?? 0)
}

// safeRedirect keeps only absolute http(s) URLs, so a misconfigured value
// (or a javascript: URL) falls back to the QR page instead of navigating.
function safeRedirect(url: string | null | undefined): boolean {
  if (!url) return false
  const u = url.trim()
  return /^https?:\/\/[^\s/]+/i.test(u)
}

// gateDecision: an unknown mode (a newer or garbled server setting) is
// treated as off: the gate only ever narrows access the operator asked for.
export function gateDecision(mode: GateMode | string | null | undefined, platform: Platform, redirectURL?: string | null): GateDecision {
  let allowed: boolean
  switch (mode) {
    case 'mobile':
      allowed = platform === 'ios' || platform === 'android'
      break
    case 'ios':
      allowed = platform === 'ios'
      break
    default:
      allowed = true
  }
  if (allowed) return 'pass'
  return safeRedirect(redirectURL) ? 'redirect' : 'qr'
}
