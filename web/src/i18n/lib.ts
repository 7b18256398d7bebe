// Strings of src/lib (HTTP status toasts, relative time, network errors,
// toasts), kept apart from the pages' catalogue. Keys: http.*, time.*,
// net.*, toast.*. The English is in en/lib.ts.
import type { libEn } from './en/lib'

export const libZhCN = {
  // spec §8: one message per HTTP status the server may answer with.
  'http.400': '请求错误',
  'http.401': '用户没有权限，请重新登录',
  'http.403': '用户得到授权，但访问被禁止',
  'http.404': '请求的地址不存在',
  'http.405': '请求方法不被允许',
  'http.406': '请求的格式不可得',
  'http.410': '请求的资源已被永久删除',
  'http.422': '数据验证错误',
  'http.500': '服务器发生错误',
  'http.502': '网关错误',
  'http.503': '服务不可用，服务器暂时过载或维护',
  'http.504': '网关超时',
  // HTTP/2 responses carry no status text, so an unlisted status needs words.
  'http.other': '请求失败（{status}）',

  'net.offline': '网络连接失败，请检查网络',
  'net.timeout': '请求超时，请稍后再试',
  'net.badResponse': '服务器返回了无法识别的数据',
  'net.failed': '请求失败，请稍后再试',

  'time.justNow': '刚刚',
  'time.seconds': '{n}秒前',
  'time.minutes': '{n}分钟前',
  'time.hours': '{n}小时前',
  'time.days': '{n}天前',
  'time.months': '{n}个月前',
  'time.years': '{n}年前',

  // formatCount: 万 (10^4) and 亿 (10^8) are the Chinese counting units.
  'time.countWan': '{n}万',
  'time.countYi': '{n}亿',

  'toast.loading': '加载中…',
} satisfies Record<string, string>

// Number units differ by language (万/亿 against k/M/B), so the two lib
// catalogues need not hold the same keys; t() accepts a key of either.
export type LibKey = keyof typeof libZhCN | keyof typeof libEn
