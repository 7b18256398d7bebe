// 内容 → 线路: the delivery lines phones use (API lines in the order they
// are tried, image and video lines they race, fallback sources), edited as
// one list per box and saved together (POST /api/admin/lines, step-up), and
// their health as the server knows it: the lines phones reported failing
// in the last 24 hours (GET /api/admin/reports?kind=line, failingLines),
// refreshed every 30 seconds. The browser does not probe the lines itself:
// the console's CSP lets it reach only its own origin.
import { useEffect, useMemo, useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Alert, Button, Card, Input, Space, Tag, Typography } from 'antd'
import { useT, type MessageKey } from '@/i18n'
import { formatTime } from '@/lib/time'
import { Page } from '@/components/Page'
import { QueryTable } from '@/components/QueryTable'
import { ErrorState } from '@/components/ErrorState'
import { catalogKeys, getFailingLines, getLines, setLines, type FailingLine, type Lines } from './api'
import { checkLines, type LineList } from './validate'
import { useProblemText } from './shared'
import { useSave } from '@/components/hooks'

const LISTS: LineList[] = ['api', 'image', 'video', 'fallback']
const split = (s: string) => s.split('\n').map((l) => l.trim()).filter(Boolean)

export interface LineHealth {
  line: string
  lists: LineList[]
  reports: number
  lastReason: string
  lastAt: string
}

// healthOf joins the configured lines with the failing reports: every
// configured line (0 reports: healthy), then reported lines no list holds.
export function healthOf(lines: Lines | undefined, failing: FailingLine[] | undefined): LineHealth[] {
  const out = new Map<string, LineHealth>()
  const norm = (u: string) => u.replace(/\/+$/, '').toLowerCase()
  for (const list of LISTS)
    for (const l of lines?.[list] ?? []) {
      const h = out.get(norm(l)) ?? { line: l, lists: [], reports: 0, lastReason: '', lastAt: '' }
      h.lists.push(list)
      out.set(norm(l), h)
    }
  for (const f of failing ?? []) {
    const h = out.get(norm(f.line)) ?? { line: f.line, lists: [], reports: 0, lastReason: '', lastAt: '' }
    h.reports = f.reports
    h.lastReason = f.lastReason
    h.lastAt = f.lastAt
    out.set(norm(f.line), h)
  }
  return [...out.values()]
}

export function LinesPage() {
  const t = useT()
  const problem = useProblemText()
  const q = useQuery({ queryKey: catalogKeys.lines, queryFn: getLines })
  const health = useQuery({ queryKey: catalogKeys.health, queryFn: getFailingLines, refetchInterval: 30_000 })
  const [text, setText] = useState<Record<LineList, string>>({ api: '', image: '', video: '', fallback: '' })
  const [tried, setTried] = useState(false)
  useEffect(() => {
    if (q.data) setText({ api: q.data.api.join('\n'), image: q.data.image.join('\n'), video: q.data.video.join('\n'), fallback: q.data.fallback.join('\n') })
  }, [q.data])
  const parsed = useMemo(() => ({ api: split(text.api), image: split(text.image), video: split(text.video), fallback: split(text.fallback) }), [text])
  const p = checkLines(parsed)
  const err = p ? `${t(`catalog.lines.${p.list}` as MessageKey)}: ${problem(p)}` : null
  const save = useSave((l: Lines) => setLines(l), 'catalog.saved', catalogKeys.lines)
  const rows = healthOf(q.data, health.data)
  return (
    <Page title={t('catalog.lines')}>
      <div className="stack">
        <Card size="small" title={t('catalog.lines.health')}>
          <Typography.Paragraph type="secondary">{t('catalog.lines.healthHint')}</Typography.Paragraph>
          <QueryTable<LineHealth>
            query={health}
            empty={t('catalog.lines.none')}
            rowKey="line"
            dataSource={rows}
            data-testid="lines-health"
            columns={[
              { title: t('catalog.lines.line'), dataIndex: 'line', render: (l: string) => <span className="mono">{l}</span> },
              { title: t('catalog.lines.lists'), dataIndex: 'lists', render: (ls: LineList[]) => (ls.length ? ls.map((l) => <Tag key={l}>{t(`catalog.lines.${l}` as MessageKey)}</Tag>) : <Tag color="orange">{t('catalog.lines.unlisted')}</Tag>), responsive: ['md'] },
              { title: t('catalog.lines.status'), key: 'status', render: (_, h) => (h.reports > 0 ? <Tag color="red" data-testid="line-failing">{t('catalog.lines.failing', { n: h.reports })}</Tag> : <Tag color="green">{t('catalog.lines.ok')}</Tag>) },
              { title: t('catalog.lines.lastReason'), dataIndex: 'lastReason', render: (r: string) => r || '—', responsive: ['sm'] },
              { title: t('catalog.lines.lastAt'), dataIndex: 'lastAt', render: (a: string) => (a ? formatTime(a) : '—'), responsive: ['lg'] },
            ]}
          />
        </Card>
        {q.isError ? (
          <ErrorState error={q.error} onRetry={() => void q.refetch()} />
        ) : (
          <Card size="small" title={t('catalog.lines.edit')} loading={q.isPending}>
            <div className="catalog-lines">
              {LISTS.map((l) => (
                <label className="catalog-field" key={l}>
                  <span>{t(`catalog.lines.${l}` as MessageKey)}</span>
                  <Input.TextArea rows={3} value={text[l]} onChange={(e) => setText((x) => ({ ...x, [l]: e.target.value }))} placeholder={l === 'fallback' ? 'https://cdn.example.com/lines.txt' : 'https://api1.example.com'} data-testid={`lines-${l}`} />
                  <Typography.Text type="secondary">{t(`catalog.lines.${l}.hint` as MessageKey)}</Typography.Text>
                </label>
              ))}
            </div>
            {tried && err ? <Alert type="error" showIcon title={err} data-testid="lines-problem" /> : null}
            <Space wrap className="catalog-actions">
              <Button
                type="primary"
                loading={save.isPending}
                onClick={() => {
                  setTried(true)
                  if (!err) save.mutate(parsed)
                }}
                data-testid="lines-save"
              >
                {t('catalog.source.save')}
              </Button>
              <Typography.Text type="secondary">{t('catalog.source.stepUp')}</Typography.Text>
            </Space>
          </Card>
        )}
      </div>
    </Page>
  )
}
