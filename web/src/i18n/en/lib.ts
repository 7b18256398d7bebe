// English of i18n/lib.ts, loaded only with the rest of the English catalogue
// (./index.ts). Its number units differ from zh-CN's (k/M/B against 万/亿).

export const libEn = {
  'http.400': 'Bad request',
  'http.401': 'Not authorised, please sign in again',
  'http.403': 'Access forbidden',
  'http.404': 'The requested address does not exist',
  'http.405': 'Method not allowed',
  'http.406': 'Requested format not available',
  'http.410': 'The resource was permanently deleted',
  'http.422': 'Validation error',
  'http.500': 'Server error',
  'http.502': 'Gateway error',
  'http.503': 'Service unavailable, overloaded or in maintenance',
  'http.504': 'Gateway timeout',
  'http.other': 'Request failed ({status})',

  'net.offline': 'Network error, please check your connection',
  'net.timeout': 'The request timed out, please try again',
  'net.badResponse': 'The server sent an unreadable response',
  'net.failed': 'Request failed, please try again',

  'time.justNow': 'just now',
  'time.seconds': '{n}s ago',
  'time.minutes': '{n}m ago',
  'time.hours': '{n}h ago',
  'time.days': '{n}d ago',
  'time.months': '{n}mo ago',
  'time.years': '{n}y ago',

  'time.countK': '{n}k',
  'time.countM': '{n}M',
  'time.countB': '{n}B',

  'toast.loading': 'Loading…',
} satisfies Record<string, string>
