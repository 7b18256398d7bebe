// Pieces the catalogue pages share: a showing window's state tag and its
// range as text, a row's edit and delete buttons, problem texts (saves,
// pagers and the drawer width are components/hooks.ts's).
import { Button, Popconfirm, Space, Tag } from 'antd'
import { useT, type MessageKey } from '@/i18n'
import { formatTime } from '@/lib/time'
import type { WindowState } from './api'

const stateColor: Record<WindowState, string> = { scheduled: 'blue', showing: 'green', ended: 'default' }

export function WindowTag({ state }: { state: WindowState }) {
  const t = useT()
  return <Tag color={stateColor[state]}>{t(`catalog.state.${state}` as MessageKey)}</Tag>
}

export function WindowText({ startsAt, endsAt }: { startsAt: number; endsAt: number }) {
  const t = useT()
  return (
    <span className="catalog-window">
      {startsAt ? formatTime(startsAt) : t('catalog.window.now')} → {endsAt ? formatTime(endsAt) : t('catalog.window.never')}
    </span>
  )
}



// problemText is a validate.ts problem in the operator's words.
export function useProblemText(): (p: { key: string; n?: number } | null) => string | null {
  const t = useT()
  return (p) => (p ? t(p.key as MessageKey, { n: p.n ?? '' }) : null)
}

// EditDelete is a table row's 编辑 and 删除 (after a confirmation); the
// delete button spins while that row's delete is on its way.
export function EditDelete({ onEdit, onDelete, deleting, editTestId }: { onEdit: () => void; onDelete: () => void; deleting: boolean; editTestId?: string }) {
  const t = useT()
  return (
    <Space wrap>
      <Button size="small" onClick={onEdit} data-testid={editTestId}>
        {t('catalog.edit')}
      </Button>
      <Popconfirm title={t('catalog.deleteConfirm')} onConfirm={onDelete} okButtonProps={{ danger: true }}>
        <Button size="small" danger loading={deleting}>
          {t('catalog.delete')}
        </Button>
      </Popconfirm>
    </Space>
  )
}
