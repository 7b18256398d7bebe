// Newer / older buttons for a list paged on the server. No page count and no
// total: the server says only whether there is more.
import { Button, Space, Typography } from 'antd'
import { LeftOutlined, RightOutlined } from '@ant-design/icons'
import { useT } from '@/i18n'

export function Pager(props: { page: number; hasPrev: boolean; hasNext: boolean; onPrev: () => void; onNext: () => void; busy?: boolean; labels?: 'time' | 'page' }) {
  const t = useT()
  const time = props.labels !== 'page'
  return (
    <Space className="pager" data-testid="pager">
      <Button icon={<LeftOutlined />} disabled={!props.hasPrev || props.busy} onClick={props.onPrev}>
        {time ? t('common.newer') : t('common.prev')}
      </Button>
      <Typography.Text type="secondary">{t('common.page', { n: props.page })}</Typography.Text>
      <Button disabled={!props.hasNext || props.busy} onClick={props.onNext}>
        {time ? t('common.older') : t('common.next')} <RightOutlined />
      </Button>
    </Space>
  )
}
