// Pure rules of the video player: which engine plays an HLS stream, the
// playback rates on offer, and where a video resumes. The player component
// (components/VideoPlayer) holds no rule of its own beyond wiring these up.
import { storage } from './storage'

export const HLS_MIME = 'application/vnd.apple.mpegurl'

// The rates of the rate menu, slowest first; 1 is the default.
export const PLAYBACK_RATES = [0.5, 1, 1.25, 1.5, 2] as const
export type PlaybackRate = (typeof PLAYBACK_RATES)[number]

export function isPlaybackRate(n: unknown): n is PlaybackRate {
  return typeof n === 'number' && (PLAYBACK_RATES as readonly number[]).includes(n)
}

// chooseEngine: Safari on iPhone plays HLS itself (and Media Source, which
// hls.js needs, is missing on older iPhones), so whatever canPlayType says
// anything but '' we hand the URL to the <video>. Elsewhere hls.js, which is
// loaded only then.
export function chooseEngine(canPlayHls: string): 'native' | 'hlsjs' {
  return canPlayHls === 'probably' || canPlayHls === 'maybe' ? 'native' : 'hlsjs'
}

// Resume positions: one entry per video id, the most recently watched last,
// at most RESUME_LIMIT, so the stored list never grows without bound.
export const RESUME_KEY = 'resume'
export const RESUME_LIMIT = 100
// A position this close to either end is not worth resuming: the opening
// seconds replay anyway, and near the end the user has finished. The end
// margin is 10 s, or a tenth of a short video (so a 12 s clip stopped at
// 7 s still resumes).
export const RESUME_MIN_S = 5
export const RESUME_END_MARGIN_S = 10

function nearEnd(seconds: number, duration?: number): boolean {
  if (duration == null || !Number.isFinite(duration) || duration <= 0) return false
  return seconds > duration - Math.min(RESUME_END_MARGIN_S, duration / 10)
}

export type ResumeEntry = [id: number, seconds: number]

function readEntries(): ResumeEntry[] {
  const raw = storage.get<unknown>(RESUME_KEY)
  if (!Array.isArray(raw)) return []
  return raw.filter(
    (e): e is ResumeEntry =>
      Array.isArray(e) && e.length === 2 && Number.isSafeInteger(e[0]) && typeof e[1] === 'number' && Number.isFinite(e[1]) && e[1] >= 0,
  )
}

// resumeAt is where video id should start: the saved position, or 0.
export function resumeAt(id: number, duration?: number): number {
  const e = readEntries().find((x) => x[0] === id)
  if (!e) return 0
  const s = e[1]
  if (s < RESUME_MIN_S) return 0
  if (nearEnd(s, duration)) return 0
  return s
}

// saveResume records id's position (moving it to the newest end) and drops
// the oldest entries past RESUME_LIMIT. A position near the end clears the
// entry: the video was watched, the next open starts from the beginning.
export function saveResume(id: number, seconds: number, duration?: number): void {
  if (!Number.isSafeInteger(id) || !Number.isFinite(seconds) || seconds < 0) return
  const rest = readEntries().filter((x) => x[0] !== id)
  const finished = nearEnd(seconds, duration)
  if (!finished && seconds >= RESUME_MIN_S) rest.push([id, Math.floor(seconds)])
  storage.set(RESUME_KEY, rest.slice(-RESUME_LIMIT))
}

// formatRate shows a rate as the menu does: 0.5x, 1x, 1.25x.
export function formatRate(r: number): string {
  return `${r}x`
}
