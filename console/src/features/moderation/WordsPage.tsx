// 审核 → 违禁词: the blocked-words list as one word per line, checked in
// the browser as the server checks it (words.ts), saved whole.
import { useEffect, useMemo, useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Alert, App, Button, Input, Space, Spin, Typography } from 'antd'
import { useT, type T } from '@/i18n'
import { formatTime } from '@/lib/time'
import { Page } from '@/components/Page'
import { ErrorState, errorTip } from '@/components/ErrorState'
import { getWords, modKeys, saveWords } from './api'
import { MAX_WORDS, MAX_WORD_CHARS, parseWords, type WordProblem } from './words'

function problemText(t: T, p: WordProblem): string {
  switch (p.kind) {
    case 'tooLong':
      return t('mod.wordsTooLong', { line: p.line, word: p.word, len: MAX_WORD_CHARS })
    case 'control':
      return t('mod.wordsControl', { line: p.line })
    case 'tooMany':
      return t('mod.wordsTooMany', { n: p.count, max: MAX_WORDS })
  }
}

export function WordsPage() {
  const t = useT()
  const qc = useQueryClient()
  const { message } = App.useApp()
  const q = useQuery({ queryKey: modKeys.words, queryFn: getWords })
  const [text, setText] = useState<string | null>(null)
  useEffect(() => {
    if (q.data && text === null) setText(q.data.words.join('\n'))
  }, [q.data, text])
  const parsed = useMemo(() => parseWords(text ?? ''), [text])
  const save = useMutation({
    mutationFn: () => saveWords(parsed.words),
    onSuccess: (l) => {
      void message.success(t('mod.wordsSaved', { n: l.words.length }))
      qc.setQueryData(modKeys.words, l)
      setText(l.words.join('\n'))
    },
    onError: (e) => void message.error(errorTip(e, t)),
  })
  if (q.isError) return <ErrorState error={q.error} onRetry={() => void q.refetch()} />
  const unchanged = q.data !== undefined && parsed.words.join('\n') === q.data.words.join('\n')
  return (
    <Page
      title={t('mod.words')}
      extra={
        <Button type="primary" loading={save.isPending} disabled={q.isPending || parsed.problems.length > 0 || unchanged} onClick={() => save.mutate()} data-testid="mod-words-save">
          {t('mod.save')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('mod.wordsHint', { max: MAX_WORDS, len: MAX_WORD_CHARS })}</Typography.Paragraph>
      {q.isPending ? (
        <Spin />
      ) : (
        <Space direction="vertical" className="full">
          {parsed.problems.map((p) => (
            <Alert key={`${p.kind}-${'line' in p ? p.line : 0}`} type="error" showIcon title={problemText(t, p)} data-testid="mod-words-problem" />
          ))}
          <Input.TextArea value={text ?? ''} onChange={(e) => setText(e.target.value)} rows={14} className="mod-words" data-testid="mod-words" />
          <Typography.Text type="secondary">
            {t('mod.wordsCount', { n: parsed.words.length })}
            {q.data?.updatedAt ? ` · ${t('mod.wordsUpdated', { at: formatTime(q.data.updatedAt) })}` : ''}
          </Typography.Text>
        </Space>
      )}
    </Page>
  )
}
