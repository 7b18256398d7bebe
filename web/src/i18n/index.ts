// One message catalogue for the whole app: every string a user reads goes
// through t(). zh-CN is the default; en is switchable from settings.
import { zhCN } from './zh-CN'
import { en } from './en'
import { libZhCN, libEn } from './lib'

export type Lang = 'zh-CN' | 'en'

const catalogues: Record<Lang, Record<string, string>> = {
  'zh-CN': { ...libZhCN, ...zhCN },
  en: { ...libEn, ...en },
}

let current: Lang = 'zh-CN'

export function setLang(lang: Lang) {
  current = lang
  if (typeof document !== 'undefined') document.documentElement.lang = lang
}

export function getLang(): Lang {
  return current
}

// t looks a key up in the current language, then zh-CN, then shows the key
// itself so a missing string is visible rather than blank. {name} in a
// message is replaced from vars.
export function t(key: string, vars?: Record<string, string | number>): string {
  let s = catalogues[current][key] ?? catalogues['zh-CN'][key] ?? key
  if (vars) for (const [k, v] of Object.entries(vars)) s = s.split(`{${k}}`).join(String(v))
  return s
}
