// The words of the console's content section, zh-CN and English
// (i18n/messages.ts joins every section's table into one).
export const contentZh = {
  'content.editor.save': '保存',
} as const

export const contentEn: Record<keyof typeof contentZh, string> = {
  'content.editor.save': 'Save',
}
