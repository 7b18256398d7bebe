// Strings of the redemption code page (features/codes). Kept apart from
// zh-CN.ts so work on other features does not edit the same lines; en must hold
// exactly these keys.
export const codesZhCN = {
  'codes.label': '兑换码',
  'codes.placeholder': 'XXXX-XXXX-XXXX',
  'codes.hint': '输入12位兑换码，不区分大小写，可直接粘贴',
  'codes.paste': '粘贴',
  'codes.clear': '清除',
  'codes.submit': '立即兑换',
  'codes.submitting': '兑换中…',
  'codes.short': '兑换码为12位字符',
  'codes.chars': '兑换码不含 0、O、1、I、L，请检查输入',
  'codes.failed': '兑换失败，请稍后再试',
  'codes.successTitle': '兑换成功',
  'codes.successFrom': '来自「{name}」',
  'codes.coins': '{n} 金币',
  'codes.vip': '{days} 天 VIP 会员',
  'codes.svip': '{days} 天超级会员',
  'codes.coupons': '{n} 张观影券',
  'codes.toWallet': '查看金币',
  'codes.toVip': '会员中心',
  'codes.toBackpack': '我的背包',
  'codes.done': '好的',
  'codes.records': '兑换记录',
  'codes.recordsEmpty': '还没有兑换记录',
  'codes.signIn': '请先登录后兑换',
  'codes.balance': '我的金币 {n}',
  'codes.rules': '每个兑换码每位用户限兑换一次；兑换码过期或已被用完后无法兑换。',
}

export type CodesKey = keyof typeof codesZhCN
