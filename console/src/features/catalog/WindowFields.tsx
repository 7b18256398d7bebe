// The form fields of a showing window: a start (empty: at once) and an end
// (empty: never), checked as the server does (the end after the start).
import { DatePicker, Form } from 'antd'
import type { Dayjs } from 'dayjs'
import { useT } from '@/i18n'

export interface WindowValues {
  startsAt?: Dayjs | null
  endsAt?: Dayjs | null
}

export function WindowFields() {
  const t = useT()
  return (
    <div className="catalog-window-fields">
      <Form.Item name="startsAt" label={t('catalog.startsAt')} extra={t('catalog.startsAtHint')}>
        <DatePicker showTime className="full" data-testid="window-start" />
      </Form.Item>
      <Form.Item
        name="endsAt"
        label={t('catalog.endsAt')}
        extra={t('catalog.endsAtHint')}
        dependencies={['startsAt']}
        rules={[
          ({ getFieldValue }) => ({
            validator: (_, v: Dayjs | null | undefined) => {
              const s = getFieldValue('startsAt') as Dayjs | null | undefined
              return v && s && !v.isAfter(s) ? Promise.reject(new Error(t('catalog.err.window'))) : Promise.resolve()
            },
          }),
        ]}
      >
        <DatePicker showTime className="full" data-testid="window-end" />
      </Form.Item>
    </div>
  )
}
