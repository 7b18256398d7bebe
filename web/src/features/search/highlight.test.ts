import { describe, expect, it } from 'vitest'
import { segments, typedMarks } from './highlight'

const hits = (title: string, marks: [number, number][] | null) =>
  segments(title, marks)
    .filter((s) => s.hit)
    .map((s) => s.text)

describe('segments', () => {
  it('marks code-point ranges of the title', () => {
    expect(segments('北京的猫', [[0, 2], [3, 4]])).toEqual([
      { text: '北京', hit: true },
      { text: '的', hit: false },
      { text: '猫', hit: true },
    ])
  })

  it('counts characters outside the BMP as one, as Go runes do', () => {
    expect(hits('𠮷野家 猫', [[4, 5]])).toEqual(['猫'])
    expect(hits('😺猫咪', [[1, 3]])).toEqual(['猫咪'])
  })

  it('clamps, drops and merges ranges it cannot trust', () => {
    expect(hits('iPhone 教程', [[-5, 2], [7, 99], [3, 1], [1, 4]])).toEqual(['iPho', '教程'])
    expect(hits('abc', [[0, 0]])).toEqual([])
    expect(segments('abc', null)).toEqual([{ text: 'abc', hit: false }])
    expect(segments('', [[0, 3]])).toEqual([{ text: '', hit: false }])
    expect(hits('abcdef', [[0, 3], [2, 5]])).toEqual(['abcde'])
    expect(hits('abc', [[0.5, 2] as [number, number]])).toEqual([])
  })

  it('keeps markup as text: the caller renders segments, never HTML', () => {
    const s = segments('<img src=x onerror=alert(1)>猫', [[28, 29]])
    expect(s.map((x) => x.text).join('')).toBe('<img src=x onerror=alert(1)>猫')
    expect(s[1]).toEqual({ text: '猫', hit: true })
  })
})

describe('typedMarks', () => {
  it('finds the typed part, case folded', () => {
    expect(typedMarks('iPhone 教程', 'iph')).toEqual([[0, 3]])
    expect(typedMarks('北京烤鸭', '京烤')).toEqual([[1, 3]])
    expect(typedMarks('北京', '上海')).toEqual([])
    expect(typedMarks('北京', '  ')).toEqual([])
  })
})
