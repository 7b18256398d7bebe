// Attaching an HLS playlist to a slide's <video>: natively where the
// browser plays HLS itself (feed.ts playbackPath), else through hls.js,
// loaded on demand so it is never in the initial bundle.
// The slide keeps this small instead of the detail page's player: it needs
// none of its controls, only a source that can be attached and detached
// quickly as slides come and go.
import { playbackPath } from './feed'

export interface Attached {
  // warm starts buffering a source attached with 'metadata' (a kept
  // neighbour that has become the current or next clip).
  warm: () => void
  detach: () => void
}

type HlsModule = typeof import('hls.js/light')

// live is the hls.js instance each element holds, so that releasing an
// element frees whatever is attached to it even when an attach was still
// on its way when the slide moved out of the source window.
const live = new WeakMap<HTMLVideoElement, { destroy: () => void }>()

// release empties a video element: no hls.js instance, no source, no
// buffers.
export function release(video: HTMLVideoElement): void {
  live.get(video)?.destroy()
  live.delete(video)
  // hls.js may link its MediaSource through a <source> child rather than
  // src (it does for ManagedMediaSource); either is removed.
  const children = video.querySelectorAll('source')
  if (video.hasAttribute('src') || children.length > 0 || video.currentSrc) {
    children.forEach((c) => c.remove())
    video.removeAttribute('src')
    video.load()
  }
}
let hlsModule: Promise<HlsModule> | null = null

// loadHls starts the download once; the page calls it early so the first
// clip does not wait for it.
export function loadHls(): Promise<HlsModule> {
  hlsModule ??= import('hls.js/light')
  return hlsModule
}

export function browserPath(video: HTMLVideoElement = document.createElement('video')): 'hls.js' | 'native' | 'none' {
  const mse = typeof window !== 'undefined' && ('MediaSource' in window || 'ManagedMediaSource' in window)
  const nativeHls = video.canPlayType('application/vnd.apple.mpegurl') !== ''
  return playbackPath({ mse, nativeHls })
}

// attach gives the video its source. preload 'auto' also buffers ahead in
// hls.js; 'metadata' loads only the playlists, so a neighbour that is
// kept but not next costs little.
export async function attach(video: HTMLVideoElement, url: string, preload: 'auto' | 'metadata', onFatal: () => void): Promise<Attached> {
  const path = browserPath(video)
  if (path === 'native') {
    video.preload = preload
    video.src = url
    return {
      warm: () => {
        video.preload = 'auto'
      },
      detach: () => {
        video.removeAttribute('src')
        video.load()
      },
    }
  }
  if (path === 'none') {
    onFatal()
    return { warm: () => undefined, detach: () => undefined }
  }
  const { default: Hls } = await loadHls()
  release(video)
  const hls = new Hls({
    autoStartLoad: preload === 'auto',
    startLevel: 0, // a short clip starts at once on the lowest rendition
    maxBufferLength: 10,
    capLevelToPlayerSize: true,
  })
  hls.on(Hls.Events.ERROR, (_e, data) => {
    if (data.fatal) onFatal()
  })
  live.set(video, hls)
  hls.loadSource(url)
  hls.attachMedia(video)
  let loading = preload === 'auto'
  return {
    warm: () => {
      if (!loading) hls.startLoad()
      loading = true
    },
    detach: () => {
      // Only if this attachment is still the element's own.
      if (live.get(video) === hls) release(video)
      else hls.destroy()
    },
  }
}

