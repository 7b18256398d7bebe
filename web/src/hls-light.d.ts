// hls.js ships types for its full build only; the light build (hls.js/light)
// has the same API minus subtitles, alternate audio and DRM.
declare module 'hls.js/light' {
  export * from 'hls.js'
  export { default } from 'hls.js'
}
