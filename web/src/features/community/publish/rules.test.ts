import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { MemoryStorage } from '@/lib/testing'
import {
  articleProblem,
  chars,
  clearDraft,
  imageProblem,
  loadDraft,
  move,
  newClientID,
  pastedText,
  percent,
  pictureProblem,
  safeLink,
  saveDraft,
} from './rules'

describe('publishing rules', () => {
  it('counts characters as the server does', () => {
    expect(chars('你好')).toBe(2)
    expect(chars('😀a')).toBe(2)
  })

  it('accepts pictures only, within the size limit', () => {
    expect(imageProblem({ name: 'a.jpg', size: 10, type: 'image/jpeg' })).toBeNull()
    expect(imageProblem({ name: 'a.heic', size: 10, type: '' })).toBeNull()
    expect(imageProblem({ name: 'a.txt', size: 10, type: 'text/plain' })).toBe('pub.notImage')
    expect(imageProblem({ name: 'a.jpg', size: 0, type: 'image/jpeg' })).toBe('pub.notImage')
    expect(imageProblem({ name: 'a.jpg', size: 11 << 20, type: 'image/jpeg' })).toBe('pub.tooBig')
  })

  it('moves a picture within bounds', () => {
    expect(move(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c'])
    expect(move(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b'])
    expect(move(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c'])
    expect(move(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c'])
  })

  it('says why a picture post cannot go yet', () => {
    expect(pictureProblem({ text: '', title: '', uploaded: 0, pending: 0 })).toBe('pub.needPicture')
    expect(pictureProblem({ text: '', title: '', uploaded: 1, pending: 1 })).toBe('pub.waitUploads')
    expect(pictureProblem({ text: 'x'.repeat(2001), title: '', uploaded: 1, pending: 0 })).toBe('pub.tooLong')
    expect(pictureProblem({ text: '', title: '字'.repeat(51), uploaded: 1, pending: 0 })).toBe('pub.titleTooLong')
    expect(pictureProblem({ text: '', title: '', uploaded: 1, pending: 0 })).toBeNull()
  })

  it('says why an article cannot go yet', () => {
    expect(articleProblem({ title: '短', textLength: 5, pictures: 0 })).toBe('pub.articleTitleShort')
    expect(articleProblem({ title: '标题', textLength: 0, pictures: 0 })).toBe('pub.articleEmpty')
    expect(articleProblem({ title: '标题', textLength: 0, pictures: 1 })).toBeNull()
    expect(articleProblem({ title: '标题', textLength: 20001, pictures: 0 })).toBe('pub.tooLong')
  })

  it('takes http(s) links only', () => {
    expect(safeLink(' https://example.com/a ')).toBe('https://example.com/a')
    expect(safeLink('javascript:alert(1)')).toBeNull()
    expect(safeLink('data:text/html,x')).toBeNull()
    expect(safeLink('example.com')).toBeNull()
  })

  it('cleans pasted text', () => {
    expect(pastedText('a\r\nb\u0000c\u0007\td')).toBe('a\nbc\td')
  })

  it('shows progress as a whole percent', () => {
    expect(percent(0, 0)).toBe(0)
    expect(percent(50, 200)).toBe(25)
    expect(percent(300, 200)).toBe(100)
  })

  it('makes distinct client ids', () => {
    expect(newClientID()).not.toBe(newClientID())
  })
})

describe('drafts', () => {
  beforeEach(() => vi.stubGlobal('localStorage', new MemoryStorage()))
  afterEach(() => vi.unstubAllGlobals())

  it('keeps one draft per kind and user', () => {
    saveDraft('picture', 7, { title: 't', text: 'x', pictures: [{ id: 1, thumb: '' }], topicID: 0, moduleID: 0 })
    saveDraft('article', 7, { title: 'a', html: '<p>b</p>', topicID: 0, moduleID: 0 })
    expect(loadDraft('picture', 7)?.pictures[0].id).toBe(1)
    expect(loadDraft('picture', 8)).toBeNull()
    expect(loadDraft('article', 7)?.html).toBe('<p>b</p>')
    clearDraft('picture', 7)
    expect(loadDraft('picture', 7)).toBeNull()
    expect(loadDraft('article', 7)).not.toBeNull()
  })
})
