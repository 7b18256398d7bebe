// What the edit form sends: only the fields that changed, trimmed, or the
// first problem to show. Pure, so the rules are tested without a page.
import { checkBio, checkName, type Gender } from './rules'
import type { ProfileEdit } from './types'

export interface FormState {
  name: string
  gender: Gender
  bio: string
}

export type FormResult = { edit: ProfileEdit } | { error: { field: 'name' | 'bio'; message: string } } | { nothing: true }

// message turns a rule's problem into words through t (passed in, so this
// file stays free of the catalogue and its tests read the keys).
type T = (key: string, vars?: Record<string, string | number>) => string

export function formEdit(before: FormState, now: FormState, t: T): FormResult {
  const edit: ProfileEdit = {}
  const name = now.name.trim()
  if (name !== before.name) {
    const p = checkName(name)
    if (p) {
      const message =
        p.code === 'length'
          ? t('edit.err.length', { min: p.min, max: p.max })
          : p.code === 'reserved'
            ? t('edit.err.reserved', { word: p.word })
            : t(`edit.err.${p.code}`)
      return { error: { field: 'name', message } }
    }
    edit.name = name
  }
  const bio = now.bio.trim()
  if (bio !== before.bio) {
    const p = checkBio(bio)
    if (p) return { error: { field: 'bio', message: p.code === 'length' ? t('edit.err.bioLength', { max: p.max }) : t('edit.err.invisible') } }
    edit.bio = bio
  }
  if (now.gender !== before.gender) edit.gender = now.gender
  return Object.keys(edit).length === 0 ? { nothing: true } : { edit }
}
