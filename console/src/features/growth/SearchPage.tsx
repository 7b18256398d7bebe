// 增长 → 搜索热词: the pinned hot words (one a line, in the order the phone
// shows them, checked here as the server checks them) beside the hot list
// the phone gets now (GET /api/app/search/hot: the pins, then the most
// searched words of the last days). Section content.
import { useEffect, useMemo, useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Alert, App, Button, Card, Empty, Input, List, Space, Spin, Tag, Typography } from 'antd'
import { useT, type T } from '@/i18n'
import { Page } from '@/components/Page'
import { ErrorState, errorTip } from '@/components/ErrorState'
import { getPins, growthKeys, savePins, type HotWord } from './api'
import { MAX_PINS, MAX_PIN_CHARS, parsePins, type PinProblem } from './logic'

function problemText(t: T, p: PinProblem): string {
  switch (p.kind) {
    case 'tooMany':
      return t('growth.pins.tooMany', { n: p.count, max: MAX_PINS })
    case 'tooLong':
      return t('growth.pins.tooLong', { line: p.line, max: MAX_PIN_CHARS })
    case 'repeat':
      return t('growth.pins.repeat', { line: p.line })
    case 'control':
      return t('growth.pins.control', { line: p.line })
    case 'empty':
      return t('growth.pins.empty', { line: p.line })
  }
}

export function SearchPage() {
  const t = useT()
  const qc = useQueryClient()
  const { message } = App.useApp()
  const q = useQuery({ queryKey: growthKeys.pins, queryFn: getPins })
  const [text, setText] = useState<string | null>(null)
  useEffect(() => {
    if (q.data && text === null) setText(q.data.words.join('\n'))
  }, [q.data, text])
  const parsed = useMemo(() => parsePins(text ?? ''), [text])
  const save = useMutation({
    mutationFn: () => savePins(parsed.words),
    onSuccess: (r) => {
      void message.success(t('growth.saved'))
      setText(r.words.join('\n'))
      void qc.invalidateQueries({ queryKey: growthKeys.pins })
    },
    onError: (e) => void message.error(errorTip(e, t)),
  })
  if (q.isError) return <ErrorState error={q.error} onRetry={() => void q.refetch()} />
  const unchanged = q.data !== undefined && parsed.words.join('\n') === q.data.words.join('\n')
  return (
    <Page
      title={t('growth.search')}
      extra={
        <Button type="primary" loading={save.isPending} disabled={q.isPending || parsed.problems.length > 0 || unchanged} onClick={() => save.mutate()} data-testid="pins-save">
          {t('growth.save')}
        </Button>
      }
    >
      <div className="growth-cols">
        <Card size="small" title={t('growth.pins')}>
          <Typography.Paragraph type="secondary">{t('growth.pins.hint', { max: MAX_PINS, len: MAX_PIN_CHARS })}</Typography.Paragraph>
          {q.isPending ? (
            <Spin />
          ) : (
            <Space direction="vertical" className="full">
              {parsed.problems.map((p, i) => (
                <Alert key={i} type="error" showIcon title={problemText(t, p)} data-testid="pins-problem" />
              ))}
              <Input.TextArea value={text ?? ''} onChange={(e) => setText(e.target.value)} rows={10} className="growth-pins" data-testid="pins-text" />
              <Typography.Text type="secondary">{t('growth.pins.count', { n: parsed.words.length, max: MAX_PINS })}</Typography.Text>
            </Space>
          )}
        </Card>
        <Card size="small" title={t('growth.hot')} extra={<Button size="small" onClick={() => void q.refetch()} loading={q.isFetching}>{t('growth.refresh')}</Button>}>
          <Typography.Paragraph type="secondary">{t('growth.hot.hint')}</Typography.Paragraph>
          {q.isPending ? (
            <Spin />
          ) : q.data.hot.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('growth.hot.empty')} />
          ) : (
            <List<HotWord>
              size="small"
              dataSource={q.data.hot}
              data-testid="hot-list"
              renderItem={(h, i) => (
                <List.Item>
                  <Space>
                    <Typography.Text type="secondary">{i + 1}</Typography.Text>
                    <span>{h.word}</span>
                    {h.pinned ? <Tag color="blue">{t('growth.hot.pinned')}</Tag> : <Typography.Text type="secondary">{t('growth.hot.count', { n: h.count })}</Typography.Text>}
                  </Space>
                </List.Item>
              )}
            />
          )}
        </Card>
      </div>
    </Page>
  )
}
