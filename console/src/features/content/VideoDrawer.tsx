// The video editor: title, sub-module, access level and price, tags,
// cover (uploaded with progress), the video file (uploaded with progress,
// then attached; its transcoding state and error follow), publish /
// unpublish and delete with confirmation. id 'new' creates a draft.
import { useEffect, useRef, useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Alert, App, Button, Drawer, Form, Grid, Input, InputNumber, Popconfirm, Progress, Select, Space, Spin, Tag, TreeSelect, Typography } from 'antd'
import { CloudUploadOutlined, PictureOutlined } from '@ant-design/icons'
import { useT, type MessageKey } from '@/i18n'
import { ErrorState, errorTip } from '@/components/ErrorState'
import {
  attachMedia,
  contentKeys,
  createVideo,
  deleteVideo,
  getMedia,
  getModules,
  getTags,
  getVideo,
  publishVideo,
  updateVideo,
  uploadFile,
  type Access,
  type AdminVideo,
  type MediaView,
} from './api'
import { accessFields } from './order'
import { accessLabel } from './labels'
import { moduleTree } from './VideosPage'

interface EditValues {
  title: string
  sub?: string // "s:<id>"
  access: Access
  price?: number | null
  tagIds: number[]
}

const stateColor: Record<MediaView['state'], string> = { processing: 'processing', ready: 'green', failed: 'red' }

export function VideoDrawer({ id, moduleType, onClose, onCreated }: { id: number | 'new' | null; moduleType?: number; onClose: () => void; onCreated: (id: number) => void }) {
  const t = useT()
  const screens = Grid.useBreakpoint()
  const vid = typeof id === 'number' ? id : 0
  const q = useQuery({ queryKey: contentKeys.video(vid), queryFn: () => getVideo(vid), enabled: vid > 0 })
  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      title={id === 'new' ? t('content.newVideo') : t('content.editVideo', { id: vid })}
      size={screens.md ? 600 : '100%'}
      destroyOnHidden
      data-testid="video-drawer"
    >
      {id === 'new' ? (
        <VideoForm moduleType={moduleType} onSaved={(v) => onCreated(v.id)} />
      ) : q.isPending ? (
        <Spin />
      ) : q.isError ? (
        <ErrorState error={q.error} onRetry={() => void q.refetch()} />
      ) : (
        <div className="stack">
          <VideoForm key={q.data.id} video={q.data} moduleType={moduleType} />
          <MediaPanel video={q.data} />
          <StatePanel video={q.data} onDeleted={onClose} />
        </div>
      )}
    </Drawer>
  )
}

function VideoForm({ video, moduleType, onSaved }: { video?: AdminVideo; moduleType?: number; onSaved?: (v: AdminVideo) => void }) {
  const t = useT()
  const qc = useQueryClient()
  const { message } = App.useApp()
  const [form] = Form.useForm<EditValues>()
  const access = Form.useWatch('access', form)
  const mods = useQuery({ queryKey: contentKeys.modules, queryFn: getModules })
  const tags = useQuery({ queryKey: contentKeys.tags, queryFn: getTags })
  const [cover, setCover] = useState<{ id: number; pct: number; done: boolean } | null>(null)
  const [coverErr, setCoverErr] = useState('')
  const coverInput = useRef<HTMLInputElement>(null)
  const save = useMutation({
    mutationFn: (v: EditValues) => {
      const body = {
        title: v.title.trim(),
        subModuleID: v.sub ? Number(v.sub.slice(2)) : undefined,
        tagIds: v.tagIds,
        ...accessFields(v.access, v.price),
        ...(cover?.done ? { coverId: cover.id } : {}),
      }
      return video ? updateVideo(video.id, body) : createVideo(body)
    },
    onSuccess: (v) => {
      void message.success(t(video ? 'content.videoSaved' : 'content.videoCreated'))
      setCover(null)
      void qc.invalidateQueries({ queryKey: contentKeys.videos })
      void qc.invalidateQueries({ queryKey: contentKeys.modules })
      onSaved?.(v)
    },
    onError: (e) => void message.error(errorTip(e, t)),
  })
  const pickCover = async (file: File | undefined) => {
    if (!file) return
    setCoverErr('')
    setCover({ id: 0, pct: 0, done: false })
    try {
      const a = await uploadFile(file, (pct) => setCover({ id: 0, pct, done: false }))
      setCover({ id: a.id, pct: 100, done: true })
    } catch (e) {
      setCover(null)
      setCoverErr(errorTip(e, t))
    }
  }
  const initial: EditValues = {
    title: video?.title ?? '',
    sub: video ? `s:${video.subModuleID}` : undefined,
    access: video?.access ?? 'free',
    price: video && video.coins > 0 ? video.coins : null,
    tagIds: video?.tags.map((x) => x.id) ?? [],
  }
  return (
    <Form<EditValues> form={form} layout="vertical" initialValues={initial} onFinish={(v) => save.mutate(v)} data-testid="video-form">
      <Form.Item name="title" label={t('content.title')} rules={[{ required: true, whitespace: true, message: t('content.needTitle') }]}>
        <Input maxLength={80} showCount data-testid="video-title" />
      </Form.Item>
      <Form.Item name="sub" label={t('content.subModule')} rules={[{ required: true, message: t('content.needSub') }]}>
        <TreeSelect showSearch treeNodeFilterProp="title" treeData={moduleTree(mods.data ?? [], moduleType, true)} treeDefaultExpandAll loading={mods.isPending} data-testid="video-sub" />
      </Form.Item>
      <Space wrap align="start">
        <Form.Item name="access" label={t('content.access')}>
          <Select className="filter-select" options={(['free', 'vip', 'svip', 'gold'] as const).map((a) => ({ value: a, label: t(accessLabel(a) ?? 'content.access.free') }))} data-testid="video-access" />
        </Form.Item>
        {access === 'gold' && (
          <Form.Item name="price" label={t('content.coins')} rules={[{ required: true, message: t('content.needPrice') }]}>
            <InputNumber min={1} max={1000000} precision={0} data-testid="video-price" />
          </Form.Item>
        )}
      </Space>
      <Form.Item name="tagIds" label={t('content.tags')}>
        <Select mode="multiple" maxCount={20} loading={tags.isPending} options={(tags.data ?? []).map((x) => ({ value: x.id, label: x.name }))} data-testid="video-tags" />
      </Form.Item>
      <Form.Item label={t('content.cover')} extra={coverErr ? <Typography.Text type="danger">{coverErr}</Typography.Text> : undefined}>
        <Space wrap>
          {video?.cover ? <img className="cover-preview" src={video.cover} alt="" /> : null}
          <input ref={coverInput} type="file" accept="image/*" className="file-input" onChange={(e) => void pickCover(e.target.files?.[0])} data-testid="video-cover-file" />
          <Button icon={<PictureOutlined />} onClick={() => coverInput.current?.click()} disabled={cover !== null && !cover.done}>
            {t('content.pickCover')}
          </Button>
          {cover && <Progress percent={cover.pct} size="small" className="upload-progress" status={cover.done ? 'success' : 'active'} />}
          {cover?.done && <Typography.Text type="secondary">{t('content.coverReady')}</Typography.Text>}
        </Space>
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={save.isPending} disabled={cover !== null && !cover.done} data-testid="video-save">
        {t('content.editor.save')}
      </Button>
    </Form>
  )
}

// MediaPanel uploads the video file with a progress bar, attaches it, and
// shows the attached upload's transcoding state (polled while processing)
// and its error.
function MediaPanel({ video }: { video: AdminVideo }) {
  const t = useT()
  const qc = useQueryClient()
  const { message } = App.useApp()
  const input = useRef<HTMLInputElement>(null)
  const [pct, setPct] = useState<number | null>(null)
  const [err, setErr] = useState('')
  const abort = useRef<AbortController | null>(null)
  useEffect(() => () => abort.current?.abort(), [])
  const media = useQuery({
    queryKey: contentKeys.media(video.mediaId),
    queryFn: () => getMedia(video.mediaId),
    enabled: video.mediaId > 0,
    refetchInterval: (q) => (q.state.data?.state === 'processing' ? 3000 : false),
  })
  const pick = async (file: File | undefined) => {
    if (!file) return
    setErr('')
    setPct(0)
    abort.current = new AbortController()
    try {
      const a = await uploadFile(file, setPct, abort.current.signal)
      await attachMedia(video.id, a.id)
      void message.success(t('content.mediaAttached'))
      void qc.invalidateQueries({ queryKey: contentKeys.videos })
    } catch (e) {
      setErr(errorTip(e, t))
    } finally {
      setPct(null)
      if (input.current) input.current.value = ''
    }
  }
  const m = media.data
  return (
    <div className="stack" data-testid="video-media">
      <Typography.Title level={5}>{t('content.mediaFile')}</Typography.Title>
      {video.mediaId === 0 ? (
        <Typography.Text type="secondary">{t('content.noMedia')}</Typography.Text>
      ) : media.isPending ? (
        <Spin size="small" />
      ) : m ? (
        <Space wrap>
          <Typography.Text>#{m.id}</Typography.Text>
          <Tag color={stateColor[m.state]} data-testid="media-state">
            {t(`content.media.${m.state}` as MessageKey)}
          </Tag>
          {m.durationMs > 0 && <Typography.Text type="secondary">{Math.round(m.durationMs / 1000)} s · {m.width}×{m.height}</Typography.Text>}
        </Space>
      ) : (
        <Typography.Text type="secondary">{t('content.mediaGone', { id: video.mediaId })}</Typography.Text>
      )}
      {m?.state === 'failed' && <Alert type="error" showIcon title={t('content.mediaFailed')} description={m.error || '—'} data-testid="media-error" />}
      <input ref={input} type="file" accept="video/*" className="file-input" onChange={(e) => void pick(e.target.files?.[0])} data-testid="video-file" />
      <Space wrap>
        <Button icon={<CloudUploadOutlined />} onClick={() => input.current?.click()} disabled={pct !== null} data-testid="video-upload">
          {video.mediaId ? t('content.replaceMedia') : t('content.uploadMedia')}
        </Button>
        {pct !== null && <Progress percent={pct} className="upload-progress" status="active" data-testid="upload-progress" />}
      </Space>
      {err && <Alert type="error" showIcon title={err} />}
    </div>
  )
}

function StatePanel({ video, onDeleted }: { video: AdminVideo; onDeleted: () => void }) {
  const t = useT()
  const qc = useQueryClient()
  const { message } = App.useApp()
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: contentKeys.videos })
    void qc.invalidateQueries({ queryKey: contentKeys.modules })
  }
  const pub = useMutation({
    mutationFn: (on: boolean) => publishVideo(video.id, on),
    onSuccess: (v) => {
      void message.success(t(v.published ? 'content.publishedNow' : 'content.unpublishedNow'))
      refresh()
    },
    onError: (e) => void message.error(errorTip(e, t)),
  })
  const del = useMutation({
    mutationFn: () => deleteVideo(video.id),
    onSuccess: () => {
      void message.success(t('content.videoDeleted'))
      refresh()
      onDeleted()
    },
    onError: (e) => void message.error(errorTip(e, t)),
  })
  return (
    <div className="page-extra video-state" data-testid="video-state">
      <Tag color={video.published ? 'green' : 'default'}>{video.published ? t('content.published') : t('content.draft')}</Tag>
      {video.published ? (
        <Popconfirm title={t('content.unpublishConfirm')} onConfirm={() => pub.mutate(false)}>
          <Button loading={pub.isPending} data-testid="video-unpublish">
            {t('content.unpublish')}
          </Button>
        </Popconfirm>
      ) : (
        <Popconfirm title={t('content.publishConfirm')} onConfirm={() => pub.mutate(true)}>
          <Button type="primary" loading={pub.isPending} data-testid="video-publish">
            {t('content.publish')}
          </Button>
        </Popconfirm>
      )}
      <Popconfirm title={t('content.deleteVideoConfirm')} onConfirm={() => del.mutate()} okButtonProps={{ danger: true }} disabled={video.published}>
        <Button danger disabled={video.published} loading={del.isPending} title={video.published ? t('content.unpublishFirst') : undefined} data-testid="video-delete">
          {t('content.delete')}
        </Button>
      </Popconfirm>
    </div>
  )
}
