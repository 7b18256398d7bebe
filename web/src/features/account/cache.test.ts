import { describe, expect, it } from 'vitest'
import { clearableKeys } from './cache'

describe('clearableKeys', () => {
  it('keeps the session and settings, drops the rest of ours, leaves others alone', () => {
    const keys = ['prima_token', 'prima_device_id', 'prima_user', 'prima_app', 'prima_config', 'prima_resume', 'prima_current_op', 'other_site', 'token']
    expect(clearableKeys(keys)).toEqual(['prima_config', 'prima_resume', 'prima_current_op'])
  })
})
