// The behaviour login and register share: field state, rules checked on
// submit and then as the user types, the mutation, and what a session
// that comes back does (store it, forget the old profile, go to /mine).
import { useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { t, type MessageKey } from '@/i18n'
import { ApiError } from '@/lib/api'
import { toast } from '@/lib/toast'
import { useUserStore } from '@/stores/user'
import type { SessionResult } from './api/login-h5'
import { hasErrors, normalizeAccount, type FieldErrors } from './validation'
import { forgetUserData } from './session'

interface Credentials {
  account: string
  password: string
}

export function useAuthForm<F extends Credentials>(opts: {
  initial: F
  validate: (f: F) => FieldErrors<keyof F & string>
  send: (input: { account: string; passWord: string }) => Promise<SessionResult>
  successKey: MessageKey
  failedKey: MessageKey
}) {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const login = useUserStore((s) => s.login)
  const m = useMutation({ mutationFn: opts.send })
  const [form, setForm] = useState<F>(opts.initial)
  const [errors, setErrors] = useState<FieldErrors<keyof F & string>>({})
  const [submitted, setSubmitted] = useState(false)

  const set = (k: keyof F & string) => (v: string) => {
    const next = { ...form, [k]: v }
    setForm(next)
    // After the first submit, messages follow the typing.
    if (submitted) setErrors(opts.validate(next))
    if (m.isError) m.reset()
  }

  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    if (m.isPending) return
    setSubmitted(true)
    const errs = opts.validate(form)
    setErrors(errs)
    if (hasErrors(errs)) return
    m.mutate(
      { account: normalizeAccount(form.account), passWord: form.password },
      {
        onSuccess: (r) => {
          // Another user now: nothing cached for the last one may show.
          forgetUserData(queryClient)
          login(r.token, r.user)
          toast.success(t(opts.successKey))
          navigate('/mine', { replace: true })
        },
      },
    )
  }

  const fieldError = (k: keyof F & string) => (errors[k] ? t(errors[k]!) : null)
  const serverError = m.error instanceof ApiError ? m.error.tip : m.error ? t(opts.failedKey) : null
  return { form, set, onSubmit, fieldError, serverError, pending: m.isPending }
}
