// The console's two languages. zh-CN is the default; the operator's choice
// is kept in localStorage. t(key, vars) fills {name} placeholders; useT()
// is t bound to the language on screen, so a switch re-renders.
import { useCallback, useSyncExternalStore } from 'react'
import { en, zh, type MessageKey } from './messages'

export type { MessageKey }
export type Lang = 'zh-CN' | 'en'

const KEY = 'prima_console_lang'
const tables: Record<Lang, Record<MessageKey, string>> = { 'zh-CN': zh, en }
const listeners = new Set<() => void>()

function saved(): Lang {
  try {
    return localStorage.getItem(KEY) === 'en' ? 'en' : 'zh-CN'
  } catch {
    return 'zh-CN'
  }
}

let current: Lang = typeof localStorage === 'undefined' ? 'zh-CN' : saved()

export function getLang(): Lang {
  return current
}

export function setLang(lang: Lang): void {
  current = lang
  try {
    localStorage.setItem(KEY, lang)
  } catch {
    // private mode: the choice lasts for this page
  }
  if (typeof document !== 'undefined') document.documentElement.lang = lang
  listeners.forEach((l) => l())
}

export function translate(lang: Lang, key: MessageKey, vars?: Record<string, string | number>): string {
  const s = tables[lang][key] ?? zh[key] ?? key
  return vars ? s.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m)) : s
}

export function t(key: MessageKey, vars?: Record<string, string | number>): string {
  return translate(current, key, vars)
}

function subscribe(l: () => void): () => void {
  listeners.add(l)
  return () => listeners.delete(l)
}

export function useLang(): Lang {
  return useSyncExternalStore(subscribe, getLang, getLang)
}

export type T = (key: MessageKey, vars?: Record<string, string | number>) => string

export function useT(): T {
  const lang = useLang()
  return useCallback((key: MessageKey, vars?: Record<string, string | number>) => translate(lang, key, vars), [lang])
}
