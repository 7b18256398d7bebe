import { describe, expect, it } from 'vitest'
import { CARD_SIZES, coverSrcSet } from './cover'

const key = '/media/covers/set/abcdefghijklmnopqrstuvwxyz.jpg'

describe('coverSrcSet', () => {
  it('offers the card copy beside a set cover', () => {
    expect(coverSrcSet(key)).toBe('/media/covers/set/abcdefghijklmnopqrstuvwxyz.w360.jpg 360w, /media/covers/set/abcdefghijklmnopqrstuvwxyz.jpg 480w')
    expect(coverSrcSet(key, (p) => 'https://img.example.com' + p)).toBe(
      'https://img.example.com/media/covers/set/abcdefghijklmnopqrstuvwxyz.w360.jpg 360w, https://img.example.com/media/covers/set/abcdefghijklmnopqrstuvwxyz.jpg 480w',
    )
  })

  it('knows a set an operator published, in its year and month folder', () => {
    expect(coverSrcSet('/media/covers/set/2026/11/abcdefghijklmnopqrstuvwxyz.jpg')).toBe(
      '/media/covers/set/2026/11/abcdefghijklmnopqrstuvwxyz.w360.jpg 360w, /media/covers/set/2026/11/abcdefghijklmnopqrstuvwxyz.jpg 480w',
    )
    expect(coverSrcSet('/media/covers/set/26/11/abcdefghijklmnopqrstuvwxyz.jpg')).toBeUndefined()
    expect(coverSrcSet('/media/covers/set/x/abcdefghijklmnopqrstuvwxyz.jpg')).toBeUndefined()
  })

  it('leaves every other cover alone', () => {
    for (const p of [
      null,
      undefined,
      '',
      '/media/covers/14.jpg',
      '/media/covers/2026/11/abcdefghijklmnopqrstuvwxyz.jpg',
      '/media/covers/set/short.jpg',
      '/media/covers/set/ABCDEFGHIJKLMNOPQRSTUVWXYZ.jpg',
      '/media/covers/set/abcdefghijklmnopqrstuvwxyz.w360.jpg',
      'https://cdn.example.com/media/covers/set/abcdefghijklmnopqrstuvwxyz.jpg',
      '/media/covers/set/abcdefghijklmnopqrstuvwxyz.png',
    ]) {
      expect(coverSrcSet(p), String(p)).toBeUndefined()
    }
  })

  it('sizes a card as half the phone', () => {
    // internal/app/homeboot.go writes the same string into the preload.
    expect(CARD_SIZES).toBe('(max-width: 430px) 50vw, 215px')
  })
})
