// The words of the console's people section, zh-CN and English
// (i18n/messages.ts joins every section's table into one).
export const peopleZh = {
  'people.user.ban': '封禁',
} as const

export const peopleEn: Record<keyof typeof peopleZh, string> = {
  'people.user.ban': 'Ban',
}
