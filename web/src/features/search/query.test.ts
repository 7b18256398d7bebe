import { describe, expect, it } from 'vitest'
import { cleanQuery, moreURL, parseKind, parseSort, parseTab, queryProblem, resultURL, sortsOf } from './query'

describe('the search word', () => {
  it('drops control characters and folds blanks', () => {
    expect(cleanQuery('  猫\u0000\u0007咪\n\t教程 \u202e ')).toBe('猫 咪 教程')
    expect(cleanQuery('\u0000\u001f')).toBe('')
  })

  it('refuses empty, blank and over-long words', () => {
    expect(queryProblem('')).toBe('search.empty')
    expect(queryProblem(' \t\u3000'.trim())).toBe('search.empty')
    expect(queryProblem('\u0000')).toBe('search.empty')
    expect(queryProblem('猫'.repeat(100))).toBeNull()
    expect(queryProblem('猫'.repeat(101))).toBe('search.tooLong')
    expect(queryProblem('😺'.repeat(100))).toBeNull()
    expect(queryProblem('a'.repeat(1000))).toBe('search.tooLong')
  })

  it('keeps query syntax as plain text', () => {
    expect(cleanQuery('"猫" OR title:狗 NEAR(a b) *')).toBe('"猫" OR title:狗 NEAR(a b) *')
  })
})

describe('tabs, kinds and sorts from the URL', () => {
  it('reads only known values', () => {
    expect(parseTab(null)).toBe('all')
    expect(parseTab('post')).toBe('post')
    expect(parseTab('<script>')).toBe('all')
    expect(parseKind('all')).toBeNull()
    expect(parseKind('short')).toBe('short')
    expect(parseSort('video', 'plays')).toBe('plays')
    expect(parseSort('post', 'plays')).toBe('relevance')
    expect(parseSort('user', 'new')).toBe('relevance')
    expect(sortsOf('topic')).toEqual([])
  })

  it('builds the result and more links, encoded', () => {
    expect(resultURL('猫 & 狗')).toBe('/search/result?keyword=%E7%8C%AB+%26+%E7%8B%97')
    expect(resultURL('a', 'video')).toBe('/search/result?keyword=a&kind=video')
    expect(moreURL('a#b', 'post')).toBe('/search/more?keyword=a%23b&kind=post')
  })
})
