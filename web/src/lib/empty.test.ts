import { describe, expect, it } from 'vitest'
import { isEmpty } from './empty'

describe('isEmpty', () => {
  it.each([
    ['null', null],
    ['undefined', undefined],
    ['empty string', ''],
    ['spaces', '   '],
    ['tabs and newlines', '\t\n '],
    ['full-width space', '\u3000'],
    ['empty array', []],
    ['empty object', {}],
    ['null-prototype object', Object.create(null)],
    ['empty map', new Map()],
    ['empty set', new Set()],
  ])('%s is empty', (_, v) => {
    expect(isEmpty(v)).toBe(true)
  })

  it.each([
    ['0', 0],
    ['NaN', NaN],
    ['false', false],
    ['a character', 'a'],
    ['a padded word', '  a  '],
    ['an array holding undefined', [undefined]],
    ['an object with an undefined field', { a: undefined }],
    ['a date', new Date(0)],
    ['a function', () => {}],
    ['a map with an entry', new Map([[1, 1]])],
  ])('%s is not empty', (_, v) => {
    expect(isEmpty(v)).toBe(false)
  })
})
