// An uploaded file as GET /api/app/vid/uploadStatic answers it (docs/api.md,
// "Uploads"). Signed URLs appear once the asset is ready.
export type AssetState = 'processing' | 'ready' | 'failed'

export interface Asset {
  id: number
  kind: 'image' | 'video'
  state: AssetState
  width: number
  height: number
  durationMs: number
  videoCodec?: string
  error?: string
  thumb?: string
  display?: string
  poster?: string
  master?: string
  createdAt: string
  updatedAt: string
}
