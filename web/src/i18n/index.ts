// One message catalogue for the whole app: every string a user reads goes
// through t(). zh-CN is the default; en is switchable from settings.
//
// Only zh-CN is bundled with the app. English (en/, 15 kB gzip) is a
// chunk of its own that loadLang imports the first time it is wanted, so
// the home page's initial JavaScript does not carry a catalogue most users
// never read. start.tsx awaits it before the first render when English is
// the saved language, and settings awaits it before switching; until it is
// there t() answers in zh-CN, never with a blank.
import { zhCN, type PageKey } from './zh-CN'
import { libZhCN, type LibKey } from './lib'
import { payZhCN, type PayKey } from './pay'
import { wdZhCN, type WdKey } from './withdraw'
import { profileZhCN, type ProfileKey } from './profile'
import { supZhCN, type SupKey } from './support'
import { msgZhCN, type MsgKey } from './messages'
import { waysZhCN, type WaysKey } from './ways'
import { certZhCN, type CertKey } from './cert'
import { wfZhCN, type WfKey } from './welfare'
import { codesZhCN, type CodesKey } from './codes'
import { inviteZhCN, type InviteKey } from './invite'
import { commZhCN, type CommKey } from './community'
import { pubZhCN, type PubKey } from './publish'
import { postZhCN, type PostKey } from './post'
import { searchZhCN, type SearchKey } from './search'
// Type only: the earnings pages' zh-CN strings are not in the first chunk
// (see provide below).
import type { EarnKey } from './earn'

export type Lang = 'zh-CN' | 'en'

// MessageKey is every key t() accepts: t('mine.login') compiles, a key
// missing from zh-CN does not. A key built at run time (route.<name>.title)
// goes through hasMessage first, or through the helpers below.
export type MessageKey = PageKey | LibKey | PayKey | WdKey | ProfileKey | SupKey | MsgKey | WaysKey | CertKey | WfKey | CodesKey | InviteKey | PubKey | CommKey | PostKey | SearchKey | EarnKey

const catalogues: Record<Lang, Partial<Record<string, string>>> = {
  'zh-CN': { ...libZhCN, ...payZhCN, ...wdZhCN, ...profileZhCN, ...supZhCN, ...msgZhCN, ...waysZhCN, ...certZhCN, ...wfZhCN, ...codesZhCN, ...inviteZhCN, ...pubZhCN, ...commZhCN, ...postZhCN, ...searchZhCN, ...zhCN },
  // Filled by loadLang('en').
  en: {},
}

let current: Lang = 'zh-CN'

// provide installs a side catalogue's zh-CN strings that only lazy pages
// read (i18n/earn.ts): the module that holds them calls it when it is
// first imported, and each page that uses its keys imports that module, so
// the strings travel in the pages' chunks and not in the app's first one.
// Their English is part of the English chunk like every other.
export function provide(messages: Record<string, string>): void {
  Object.assign(catalogues['zh-CN'], messages)
}

let loadingEn: Promise<void> | null = null

// loadLang makes a language's catalogue ready: at once for zh-CN; for en
// it imports the English chunk (once: every later call shares the same
// promise) and installs it. A failed import (offline) rejects, and the
// next call tries again.
export function loadLang(lang: Lang): Promise<void> {
  if (lang === 'zh-CN') return Promise.resolve()
  loadingEn ??= import('./en').then(
    (m) => {
      catalogues.en = m.en
    },
    (err: unknown) => {
      loadingEn = null
      throw err
    },
  )
  return loadingEn
}

export function setLang(lang: Lang) {
  current = lang
  if (typeof document !== 'undefined') document.documentElement.lang = lang
}

export function getLang(): Lang {
  return current
}

// t looks a key up in the current language, then zh-CN (so also while
// English is loading), then shows the key itself so a missing string is
// visible rather than blank. {name} in a message is replaced from vars.
export function t(key: MessageKey, vars?: Record<string, string | number>): string {
  return translate(current, key, vars)
}

// translate is t in a language named by the caller, not the app's.
export function translate(lang: Lang, key: MessageKey, vars?: Record<string, string | number>): string {
  let s = catalogues[lang][key] ?? catalogues['zh-CN'][key] ?? key
  if (vars) for (const [k, v] of Object.entries(vars)) s = s.split(`{${k}}`).join(String(v))
  return s
}

// hasMessage narrows a key composed at run time to one the catalogue holds.
export function hasMessage(key: string): key is MessageKey {
  return key in catalogues['zh-CN']
}

// routeTitle / routeDesc name a screen of the route table (route.<name>.*;
// routes.test.ts checks every route has both in both languages). An
// unknown name shows the not-found screen's words.
export function routeTitle(name: string): string {
  const key = `route.${name}.title`
  return t(hasMessage(key) ? key : 'route.notfound.title')
}

export function routeDesc(name: string): string {
  const key = `route.${name}.desc`
  return t(hasMessage(key) ? key : 'route.notfound.desc')
}
