// The visible toggle of the global dark flag (mine and setting pages).
import Switch from 'antd-mobile/es/components/switch'
import { t } from '@/i18n'
import { isDark, useAppStore } from '@/stores/app'

export function DarkSwitch() {
  const dark = useAppStore(isDark)
  const setDark = useAppStore((s) => s.setDark)
  return (
    <Switch
      className="prima-hit"
      checked={dark}
      onChange={setDark}
      aria-label={t('setting.dark')}
      data-testid="dark-toggle"
    />
  )
}
