// The words of the console's moderation section, zh-CN and English
// (i18n/messages.ts joins every section's table into one).
export const moderationZh = {
  'mod.queue': '帖子审核',
} as const

export const moderationEn: Record<keyof typeof moderationZh, string> = {
  'mod.queue': 'Post review',
}
