import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { loadLang, setLang } from '@/i18n'
import { KNOWN_STATUSES, statusMessage } from './http'

// English is a chunk loaded on demand; these tests switch to it.
beforeAll(() => loadLang('en'))
afterEach(() => setLang('zh-CN'))

describe('statusMessage', () => {
  it.each([
    [400, '请求错误'],
    [401, '用户没有权限，请重新登录'],
    [403, '用户得到授权，但访问被禁止'],
    [404, '请求的地址不存在'],
    [405, '请求方法不被允许'],
    [406, '请求的格式不可得'],
    [410, '请求的资源已被永久删除'],
    [422, '数据验证错误'],
    [500, '服务器发生错误'],
    [502, '网关错误'],
    [503, '服务不可用，服务器暂时过载或维护'],
    [504, '网关超时'],
  ])('%s has its zh-CN message whatever the status text says', (status, want) => {
    expect(statusMessage(status, 'Whatever')).toBe(want)
  })

  it('covers exactly the twelve statuses of the spec', () => {
    expect([...KNOWN_STATUSES]).toEqual([400, 401, 403, 404, 405, 406, 410, 422, 500, 502, 503, 504])
  })

  it('shows the status text for other statuses', () => {
    expect(statusMessage(409, 'Conflict')).toBe('Conflict')
    expect(statusMessage(429, ' Too Many Requests ')).toBe('Too Many Requests')
    expect(statusMessage(501, 'Not Implemented')).toBe('Not Implemented')
    expect(statusMessage(402, 'Payment Required')).toBe('Payment Required')
  })

  it('still says something when there is no status text (HTTP/2)', () => {
    expect(statusMessage(429, '')).toBe('请求失败（429）')
    expect(statusMessage(418, null)).toBe('请求失败（418）')
    expect(statusMessage(507)).toBe('请求失败（507）')
  })

  it('has an English catalogue', () => {
    setLang('en')
    expect(statusMessage(404, '')).toBe('The requested address does not exist')
    expect(statusMessage(429, '')).toBe('Request failed (429)')
  })
})
