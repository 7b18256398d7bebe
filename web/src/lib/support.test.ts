import { describe, expect, it } from 'vitest'
import { chars, faqAnswer, feedbackProblem, initial, settledProblems } from './support'

describe('faqAnswer', () => {
  it('opens links and shows text', () => {
    expect(faqAnswer('https://help.example/vip')).toEqual({ kind: 'link', url: 'https://help.example/vip' })
    expect(faqAnswer(' /mine/vipcenter ')).toEqual({ kind: 'link', url: '/mine/vipcenter' })
    expect(faqAnswer('进入「我的」\n点击开通')).toEqual({ kind: 'text', text: '进入「我的」\n点击开通' })
    // A protocol-relative address or a sentence starting with a link is text.
    expect(faqAnswer('//evil.example/x').kind).toBe('text')
    expect(faqAnswer('https://a.example 然后点击').kind).toBe('text')
    expect(faqAnswer('javascript:alert(1)').kind).toBe('text')
    expect(faqAnswer(null)).toEqual({ kind: 'text', text: '' })
  })
})

describe('feedback rules', () => {
  it('counts characters, not UTF-16 units', () => {
    expect(chars('😀😀')).toBe(2)
    expect(feedbackProblem('  五个字正好 ')).toBeNull()
    expect(feedbackProblem('四个字啊 ')).toBe('short')
    expect(feedbackProblem('😀😀😀😀😀')).toBeNull()
    expect(feedbackProblem('长'.repeat(500))).toBeNull()
    expect(feedbackProblem('长'.repeat(501))).toBe('long')
  })
})

describe('settledProblems', () => {
  const ok = { name: '阿狸工作室', contact: 'tg@ali', intro: '专注原创短视频三年，每周更新。' }
  it('names each field out of its limits', () => {
    expect(settledProblems(ok)).toEqual([])
    expect(settledProblems({ ...ok, name: '阿' })).toEqual(['name'])
    expect(settledProblems({ ...ok, name: '阿狸\n工作室', contact: 'ab', intro: '太短' })).toEqual(['name', 'contact', 'intro'])
    expect(settledProblems({ ...ok, intro: '第一行很长的介绍\n第二行也很长' })).toEqual([])
  })
})

describe('initial', () => {
  it('is the first character, upper-cased', () => {
    expect(initial(' prima ')).toBe('P')
    expect(initial('精品')).toBe('精')
    expect(initial('')).toBe('?')
  })
})
