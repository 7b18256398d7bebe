// 增长 → 签到: the seven days of the check-in cycle, each day's points and
// coins (at least one of the two), saved whole. The phone's check-in strip
// (GET /api/app/active/checkin) shows the same seven days.
import { useEffect, useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { App, Button, Card, InputNumber, Space, Spin, Typography } from 'antd'
import { useT } from '@/i18n'
import { Page } from '@/components/Page'
import { ErrorState, errorTip } from '@/components/ErrorState'
import { getCycle, growthKeys, saveCycle, type DayReward } from './api'
import { CYCLE_DAYS, MAX_POINTS, MAX_REWARD_COINS, whole } from './logic'

interface Day {
  points: number | null
  coins: number | null
}

const toDays = (days: DayReward[]): Day[] => Array.from({ length: CYCLE_DAYS }, (_, i) => ({ points: days[i]?.points ?? 0, coins: days[i]?.coins ?? 0 }))

export function CheckinPage() {
  const t = useT()
  const qc = useQueryClient()
  const { message } = App.useApp()
  const q = useQuery({ queryKey: growthKeys.cycle, queryFn: getCycle })
  const [days, setDays] = useState<Day[] | null>(null)
  useEffect(() => {
    if (q.data && days === null) setDays(toDays(q.data.days))
  }, [q.data, days])
  const save = useMutation({
    mutationFn: (d: DayReward[]) => saveCycle(d),
    onSuccess: (c) => {
      void message.success(t('growth.saved'))
      qc.setQueryData(growthKeys.cycle, c)
      setDays(toDays(c.days))
    },
    onError: (e) => void message.error(errorTip(e, t)),
  })
  if (q.isError) return <ErrorState error={q.error} onRetry={() => void q.refetch()} />
  // A day is good when both parts are whole, in bounds, and not both 0.
  const bad = (d: Day) => {
    const p = whole(d.points ?? 0, 0, MAX_POINTS)
    const c = whole(d.coins ?? 0, 0, MAX_REWARD_COINS)
    return p === null || c === null || p + c === 0
  }
  const problems = (days ?? []).map(bad)
  const unchanged = q.data !== undefined && days !== null && JSON.stringify(toDays(q.data.days)) === JSON.stringify(days.map((d) => ({ points: d.points ?? 0, coins: d.coins ?? 0 })))
  const set = (i: number, part: keyof Day, v: number | null) => setDays((ds) => (ds ?? []).map((d, j) => (j === i ? { ...d, [part]: v } : d)))
  return (
    <Page
      title={t('growth.checkin')}
      extra={
        <Button
          type="primary"
          loading={save.isPending}
          disabled={days === null || problems.some(Boolean) || unchanged}
          onClick={() => days && save.mutate(days.map((d) => ({ points: d.points ?? 0, coins: d.coins ?? 0 })))}
          data-testid="checkin-save"
        >
          {t('growth.save')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('growth.checkinHint')}</Typography.Paragraph>
      {q.isPending || days === null ? (
        <Spin />
      ) : (
        <div className="growth-days" data-testid="checkin-days">
          {days.map((d, i) => (
            <Card key={i} size="small" title={t('growth.day', { n: i + 1 })} className={problems[i] ? 'growth-day-bad' : undefined}>
              <Space direction="vertical" className="full">
                <InputNumber
                  className="full"
                  addonBefore={t('growth.points')}
                  min={0}
                  max={MAX_POINTS}
                  precision={0}
                  value={d.points}
                  onChange={(v) => set(i, 'points', v)}
                  data-testid={`checkin-points-${i + 1}`}
                />
                <InputNumber
                  className="full"
                  addonBefore={t('growth.coins')}
                  min={0}
                  max={MAX_REWARD_COINS}
                  precision={0}
                  value={d.coins}
                  onChange={(v) => set(i, 'coins', v)}
                  data-testid={`checkin-coins-${i + 1}`}
                />
                {problems[i] ? <Typography.Text type="danger">{t('growth.dayEmpty')}</Typography.Text> : null}
              </Space>
            </Card>
          ))}
        </div>
      )}
    </Page>
  )
}
