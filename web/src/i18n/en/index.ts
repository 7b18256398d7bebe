// The whole English catalogue in one module: i18n/index.ts imports it
// dynamically (loadLang), so it is a chunk of its own that only a user who
// reads English downloads. Same order as the zh-CN side: the pages' keys last.
import { en as pages } from './pages'
import { libEn } from './lib'
import { payEn } from './pay'
import { wdEn } from './withdraw'
import { profileEn } from './profile'
import { supEn } from './support'
import { msgEn } from './messages'
import { waysEn } from './ways'
import { certEn } from './cert'
import { wfEn } from './welfare'
import { codesEn } from './codes'
import { inviteEn } from './invite'
import { commEn } from './community'
import { pubEn } from './publish'
import { postEn } from './post'
import { searchEn } from './search'
import { earnEn } from './earn'

export const en: Record<string, string> = {
  ...libEn,
  ...payEn,
  ...wdEn,
  ...profileEn,
  ...supEn,
  ...msgEn,
  ...waysEn,
  ...certEn,
  ...wfEn,
  ...codesEn,
  ...inviteEn,
  ...pubEn,
  ...commEn,
  ...postEn,
  ...searchEn,
  ...earnEn,
  ...pages,
}
