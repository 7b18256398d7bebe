// setting (/mine/setting): account safety, language, dark mode, clearing
// the cache (local data and the query cache; the session and settings
// stay), about with the version, and signing out (which revokes the token
// and starts a fresh guest session on /mine).
import { useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import { useQueryClient } from '@tanstack/react-query'
import { loadLang, t, type Lang } from '@/i18n'
import { APP_VERSION } from '@/lib/api'
import { confirm } from '@/lib/dialog'
import { toast } from '@/lib/toast'
import { DarkSwitch } from '@/components/DarkSwitch'
import { NavBar } from '@/components/NavBar'
import { Spinner } from '@/components/Spinner'
import { useAppStore } from '@/stores/app'
import { useUserStore } from '@/stores/user'
import { Cell, CellGroup } from '@/features/account/components/Cells'
import { Glyph } from '@/features/account/components/MineIcons'
import { signOut } from '@/features/account/session'
import { clearLocalCache } from '@/features/account/cache'
import { accountKeys } from '@/features/account/keys'
import styles from './SettingPage.module.css'

const LANGS: { lang: Lang; label: string; testid: string }[] = [
  // Each language is named in itself, so it can be found whatever is set.
  { lang: 'zh-CN', label: '简体中文', testid: 'lang-zh-CN' },
  { lang: 'en', label: 'English', testid: 'lang-en' },
]

export default function SettingPage() {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const lang = useAppStore((s) => s.lang)
  const setLang = useAppStore((s) => s.setLang)
  const user = useUserStore((s) => s.user)
  const [busy, setBusy] = useState(false)
  const chosen = useRef(lang)

  // A language's catalogue loads before the switch (English is a chunk of
  // its own): offline, the network toast says so and nothing changes. Of
  // two quick taps the last wins, whichever finishes loading first.
  const chooseLang = async (next: Lang) => {
    chosen.current = next
    try {
      await loadLang(next)
    } catch {
      toast.fail(t('net.offline'))
      return
    }
    if (chosen.current === next) setLang(next)
  }

  // Signing out asks first: it ends the session on this device.
  const confirmLogout = async () => {
    if (busy) return
    const ok = await confirm({ title: t('setting.logoutConfirm'), content: t('setting.logoutConfirmHint'), confirmText: t('setting.logout') })
    if (ok) await onLogout()
  }

  // Clearing the cache asks first, then drops stored data and every cached
  // query but keeps the session; the user info is fetched again at once so
  // the Mine page never shows an empty user.
  const confirmClear = async () => {
    const ok = await confirm({ title: t('ways.setting.clearConfirm'), content: t('ways.setting.clearHint'), confirmText: t('ways.setting.clearCache') })
    if (!ok) return
    await clearLocalCache()
    queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== accountKeys.all[0] || q.queryKey[1] !== 'info' })
    void queryClient.invalidateQueries({ queryKey: accountKeys.all })
    toast.success(t('ways.setting.cleared'))
  }

  const onLogout = async () => {
    if (busy) return
    setBusy(true)
    try {
      await signOut(queryClient)
      toast.success(t('setting.loggedOut'))
      navigate('/mine', { replace: true })
    } catch {
      toast.fail(t('setting.logoutFailed'))
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className={styles.page}>
      <NavBar title={t('route.setting.title')} back="/mine" />
      <main className={styles.body}>
        <CellGroup>
          <Cell icon={<Glyph name="shield" color="#34c759" />} title={t('ways.setting.safe')} to="/mine/accountsafe" testid="setting-accountsafe" />
        </CellGroup>
        <CellGroup title={t('setting.general')}>
          <Cell
            icon={<Glyph name="globe" color="#007aff" />}
            title={t('setting.language')}
            extra={
              <span className={styles.segmented} role="radiogroup" aria-label={t('setting.language')}>
                {LANGS.map((l) => (
                  <button
                    key={l.lang}
                    type="button"
                    role="radio"
                    aria-checked={lang === l.lang}
                    className={`${styles.segment} ${lang === l.lang ? styles.on : ''} prima-hit`}
                    onClick={() => void chooseLang(l.lang)}
                    data-testid={l.testid}
                  >
                    {l.label}
                  </button>
                ))}
              </span>
            }
          />
          <Cell icon={<Glyph name="moon" color="#5e5ce6" />} title={t('setting.dark')} extra={<DarkSwitch />} />
          <Cell icon={<Glyph name="trash" color="#ff3b30" />} title={t('ways.setting.clearCache')} onClick={() => void confirmClear()} testid="setting-clear-cache" />
        </CellGroup>
        <CellGroup title={t('setting.about')}>
          <Cell icon={<Glyph name="info" color="#8e8e93" />} title={t('setting.version')} value={<span data-testid="setting-version">{APP_VERSION}</span>} />
        </CellGroup>
        {user && !user.isGuest && (
          <CellGroup>
            <Cell
              title={
                <span className={styles.logout}>
                  {busy && <Spinner size={14} />}
                  {t('setting.logout')}
                </span>
              }
              onClick={() => void confirmLogout()}
              danger
              testid="logout"
            />
          </CellGroup>
        )}
      </main>
    </div>
  )
}
