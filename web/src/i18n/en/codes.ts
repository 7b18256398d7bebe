// English of i18n/codes.ts, loaded only with the rest of the English catalogue
// (./index.ts). The type holds it to exactly the zh-CN keys.
import type { CodesKey } from '@/i18n/codes'

export const codesEn: Record<CodesKey, string> = {
  'codes.label': 'Redeem code',
  'codes.placeholder': 'XXXX-XXXX-XXXX',
  'codes.hint': '12 characters, any case; paste works',
  'codes.paste': 'Paste',
  'codes.clear': 'Clear',
  'codes.submit': 'Redeem',
  'codes.submitting': 'Redeeming…',
  'codes.short': 'A code has 12 characters',
  'codes.chars': 'Codes never contain 0, O, 1, I or L: check what you typed',
  'codes.failed': 'Could not redeem, please try again later',
  'codes.successTitle': 'Redeemed',
  'codes.successFrom': 'From "{name}"',
  'codes.coins': '{n} coins',
  'codes.vip': '{days} days of VIP',
  'codes.svip': '{days} days of Super VIP',
  'codes.coupons': '{n} viewing coupons',
  'codes.toWallet': 'See coins',
  'codes.toVip': 'VIP centre',
  'codes.toBackpack': 'Backpack',
  'codes.done': 'OK',
  'codes.records': 'My redemptions',
  'codes.recordsEmpty': 'No redemptions yet',
  'codes.signIn': 'Sign in to redeem a code',
  'codes.balance': 'My coins: {n}',
  'codes.rules': 'Each code can be redeemed once per user; expired or used-up codes cannot be redeemed.',
}
