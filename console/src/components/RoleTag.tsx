import { Tag } from 'antd'
import { useT, type MessageKey } from '@/i18n'

const colours: Record<string, string> = { owner: 'gold', content: 'blue', moderator: 'purple', finance: 'green', support: 'cyan', operator: 'geekblue' }

export function roleKey(role: string): MessageKey | null {
  const k = `role.${role}`
  return ['role.owner', 'role.content', 'role.moderator', 'role.finance', 'role.support', 'role.user', 'role.operator'].includes(k) ? (k as MessageKey) : null
}

export function RoleTag({ role }: { role: string }) {
  const t = useT()
  const k = roleKey(role)
  return (
    <Tag color={colours[role]} data-role={role}>
      {k ? t(k) : role}
    </Tag>
  )
}
