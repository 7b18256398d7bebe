import { describe, expect, it } from 'vitest'
import { formEdit, type FormState } from './edit'

const t = (key: string, vars?: Record<string, string | number>) => (vars ? `${key} ${JSON.stringify(vars)}` : key)
const before: FormState = { name: '小明', gender: 0, bio: '' }

describe('formEdit', () => {
  it('sends only what changed, trimmed', () => {
    expect(formEdit(before, { name: ' 小明 ', gender: 0, bio: '  ' }, t)).toEqual({ nothing: true })
    expect(formEdit(before, { name: '小红', gender: 2, bio: ' hi ' }, t)).toEqual({ edit: { name: '小红', gender: 2, bio: 'hi' } })
    expect(formEdit(before, { name: '小明', gender: 1, bio: '' }, t)).toEqual({ edit: { gender: 1 } })
  })
  it('lets an unchanged generated guest name through', () => {
    const guest = { name: '游客ABC234', gender: 0 as const, bio: '' }
    expect(formEdit(guest, { ...guest, bio: 'x' }, t)).toEqual({ edit: { bio: 'x' } })
  })
  it('names the first problem', () => {
    expect(formEdit(before, { ...before, name: '官方客服' }, t)).toEqual({ error: { field: 'name', message: 'edit.err.reserved {"word":"客服"}' } })
    expect(formEdit(before, { ...before, name: 'a' }, t)).toEqual({ error: { field: 'name', message: 'edit.err.length {"min":2,"max":16}' } })
    expect(formEdit(before, { ...before, name: '' }, t)).toEqual({ error: { field: 'name', message: 'edit.err.empty' } })
    expect(formEdit(before, { ...before, bio: '长'.repeat(61) }, t)).toEqual({ error: { field: 'bio', message: 'edit.err.bioLength {"max":60}' } })
  })
})
