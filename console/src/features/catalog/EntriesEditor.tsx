// One remote-configuration key's list as a form: each entry's title, url
// (an FAQ's answer, several lines), weight, and for APPS an icon and a
// line of text; add, remove, move. Checked as the server checks
// (validate.ts checkSource) before POST /api/admin/source, which needs a
// fresh TOTP code: the client asks for one when the server says so.
// Entries keep their ids, so an app's clicks stay with it.
import { useEffect, useState } from 'react'
import { Alert, Button, Input, InputNumber, Space, Typography } from 'antd'
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons'
import { useT, type MessageKey } from '@/i18n'
import { catalogKeys, setSource, type SourceEntry } from './api'
import { LINK_KEYS, MAX_SOURCE_ENTRIES, checkSource, type EntryDraft } from './validate'
import { useProblemText } from './shared'
import { useSave } from '@/components/hooks'

const toDraft = (e: SourceEntry): EntryDraft => ({ id: e.id, title: e.title, url: e.url, weight: e.weight, icon: e.icon ?? '', desc: e.desc ?? '' })

export function EntriesEditor({ sourceKey, entries }: { sourceKey: string; entries: SourceEntry[] }) {
  const t = useT()
  const problem = useProblemText()
  const [drafts, setDrafts] = useState<EntryDraft[]>(() => entries.map(toDraft))
  const [tried, setTried] = useState(false)
  useEffect(() => {
    setDrafts(entries.map(toDraft))
    setTried(false)
  }, [entries, sourceKey])
  const save = useSave(
    (list: EntryDraft[]) =>
      setSource(
        sourceKey,
        list.map((e) => ({ id: e.id, title: e.title.trim(), url: e.url.trim(), weight: e.weight, icon: (e.icon ?? '').trim(), desc: (e.desc ?? '').trim() })),
      ),
    'catalog.saved',
    catalogKeys.source,
  )
  const faq = sourceKey === 'FAQ'
  const apps = sourceKey === 'APPS'
  const err = problem(checkSource(sourceKey, drafts))
  const set = (i: number, patch: Partial<EntryDraft>) => setDrafts((d) => d.map((e, j) => (j === i ? { ...e, ...patch } : e)))
  const move = (i: number, by: number) =>
    setDrafts((d) => {
      const n = [...d]
      const [e] = n.splice(i, 1)
      n.splice(i + by, 0, e)
      return n
    })
  const hintKey = `catalog.key.${sourceKey}.hint` as MessageKey
  return (
    <div className="stack" data-testid={`source-editor-${sourceKey}`}>
      <Typography.Text type="secondary">{t(hintKey)}</Typography.Text>
      {drafts.length === 0 ? <Typography.Text type="secondary">{t('catalog.source.none')}</Typography.Text> : null}
      {drafts.map((e, i) => (
        <div className="catalog-entry" key={e.id ?? `new-${i}`} data-testid={`source-entry-${i}`}>
          <div className="catalog-entry-head">
            <Typography.Text strong>#{i + 1}</Typography.Text>
            {e.id ? <Typography.Text type="secondary">ID {e.id}</Typography.Text> : <Typography.Text type="secondary">{t('catalog.source.new')}</Typography.Text>}
            <span className="grow" />
            <Button size="small" icon={<ArrowUpOutlined />} disabled={i === 0} onClick={() => move(i, -1)} aria-label={t('catalog.up')} />
            <Button size="small" icon={<ArrowDownOutlined />} disabled={i === drafts.length - 1} onClick={() => move(i, 1)} aria-label={t('catalog.down')} />
            <Button size="small" danger icon={<DeleteOutlined />} onClick={() => setDrafts((d) => d.filter((_, j) => j !== i))} aria-label={t('catalog.delete')} />
          </div>
          <label className="catalog-field">
            <span>{faq ? t('catalog.source.question') : t('catalog.source.title')}</span>
            <Input value={e.title} maxLength={100} onChange={(ev) => set(i, { title: ev.target.value })} data-testid={`source-title-${i}`} />
          </label>
          <label className="catalog-field">
            <span>{faq ? t('catalog.source.answer') : LINK_KEYS.has(sourceKey) ? t('catalog.source.link') : t('catalog.source.value')}</span>
            {faq ? (
              <Input.TextArea value={e.url} rows={3} maxLength={2000} onChange={(ev) => set(i, { url: ev.target.value })} data-testid={`source-url-${i}`} />
            ) : (
              <Input value={e.url} maxLength={2000} onChange={(ev) => set(i, { url: ev.target.value })} data-testid={`source-url-${i}`} />
            )}
          </label>
          <label className="catalog-field">
            <span>{t('catalog.source.weight')}</span>
            <InputNumber value={e.weight} min={0} max={1_000_000} precision={0} onChange={(v) => set(i, { weight: v ?? 0 })} className="full" />
          </label>
          {apps ? (
            <>
              <label className="catalog-field">
                <span>{t('catalog.source.icon')}</span>
                <Input value={e.icon} maxLength={500} placeholder="/media/covers/app.png" onChange={(ev) => set(i, { icon: ev.target.value })} />
              </label>
              <label className="catalog-field">
                <span>{t('catalog.source.desc')}</span>
                <Input value={e.desc} maxLength={200} onChange={(ev) => set(i, { desc: ev.target.value })} />
              </label>
            </>
          ) : null}
        </div>
      ))}
      {tried && err ? <Alert type="error" showIcon title={err} data-testid="source-problem" /> : null}
      <Space wrap>
        <Button
          icon={<PlusOutlined />}
          disabled={drafts.length >= MAX_SOURCE_ENTRIES}
          onClick={() => setDrafts((d) => [...d, { title: '', url: '', weight: 0, icon: '', desc: '' }])}
          data-testid="source-add"
        >
          {t('catalog.source.add')}
        </Button>
        <Button
          type="primary"
          loading={save.isPending}
          onClick={() => {
            setTried(true)
            if (!err) save.mutate(drafts)
          }}
          data-testid="source-save"
        >
          {t('catalog.source.save')}
        </Button>
        <Typography.Text type="secondary">{t('catalog.source.stepUp')}</Typography.Text>
      </Space>
    </div>
  )
}
