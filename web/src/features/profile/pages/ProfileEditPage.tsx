// profileedit (/mine/profile): edit my portrait, name, gender and bio.
// A new portrait is picked, cropped square on the phone, uploaded with a
// progress ring (POST /api/app/vid/uploadStatic) and saved at once; the
// other fields are saved together, only those that changed.
import { useEffect, useMemo, useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import { t, type MessageKey } from '@/i18n'
import { ApiError } from '@/lib/api'
import { toast } from '@/lib/toast'
import { uploadFile, UploadCancelled } from '@/lib/upload'
import { NavBar } from '@/components/NavBar'
import { StateView } from '@/components/StateView'
import { useUserStore } from '@/stores/user'
import { useMyInfo, useUpdateProfile } from '@/features/profile/api/profile'
import { PersonAvatar } from '@/features/profile/components/Avatar'
import { Cropper } from '@/features/profile/components/Cropper'
import { formEdit, type FormState } from '@/features/profile/edit'
import { BIO_MAX, length, NAME_MAX, NAME_MIN, type Gender } from '@/features/profile/rules'
import ui from '@/features/profile/components/ui.module.css'
import styles from '@/features/profile/components/edit.module.css'

const GENDERS: Gender[] = [0, 1, 2]
const tk = (key: string, vars?: Record<string, string | number>) => t(key as MessageKey, vars)

export default function ProfileEditPage() {
  const navigate = useNavigate()
  const token = useUserStore((s) => s.token)
  const me = useMyInfo(token)
  const save = useUpdateProfile()
  const file = useRef<HTMLInputElement>(null)
  const [picked, setPicked] = useState<ImageBitmap | null>(null)
  const [progress, setProgress] = useState<number | null>(null)
  const [form, setForm] = useState<FormState | null>(null)
  const [error, setError] = useState<{ field: 'name' | 'bio'; message: string } | null>(null)

  const loaded = useMemo<FormState | null>(() => (me.data ? { name: me.data.name, gender: me.data.gender ?? 0, bio: me.data.bio ?? '' } : null), [me.data])
  useEffect(() => {
    if (loaded && form == null) setForm(loaded)
  }, [loaded, form])

  const onFile = async (e: React.ChangeEvent<HTMLInputElement>) => {
    const f = e.target.files?.[0]
    e.target.value = '' // picking the same file again fires change again
    if (!f) return
    if (!f.type.startsWith('image/')) {
      toast.fail(t('edit.err.notImage'))
      return
    }
    try {
      setPicked(await createImageBitmap(f))
    } catch {
      toast.fail(t('edit.err.decode'))
    }
  }

  const onCrop = async (jpeg: Blob) => {
    setPicked(null)
    setProgress(0)
    let id: number
    try {
      const up = uploadFile<{ id: number }>('/api/app/vid/uploadStatic', jpeg, {
        onProgress: (sent, total) => setProgress(total ? Math.round((sent / total) * 100) : 0),
      })
      id = (await up.promise).id
    } catch (err) {
      // Uploads do not go through the API client, so nothing toasted yet.
      if (!(err instanceof UploadCancelled)) toast.fail(err instanceof ApiError ? err.tip : t('state.error'))
      setProgress(null)
      return
    }
    try {
      await save.mutateAsync({ portrait: id })
      toast.success(t('edit.saved'))
    } catch {
      // The API client toasted the server's tip.
    } finally {
      setProgress(null)
    }
  }

  const onSave = () => {
    if (!loaded || !form) return
    const r = formEdit(loaded, form, tk)
    if ('error' in r) {
      setError(r.error)
      return
    }
    setError(null)
    if ('nothing' in r) {
      toast.text(t('edit.nothing'))
      return
    }
    save.mutate(r.edit, {
      onSuccess: () => {
        toast.success(t('edit.saved'))
        navigate('/myhome', { replace: true })
      },
    })
  }

  let body
  if (token == null) body = <StateView kind="empty" title={t('people.signIn')} />
  else if (me.isPending) body = <StateView kind="loading" />
  else if (me.isError && !me.data) body = <StateView kind="error" error={me.error} onRetry={() => void me.refetch()} />
  else if (form && me.data)
    body = (
      <>
        <div className={styles.form}>
          <button type="button" className={`${styles.portraitRow} prima-hit`} onClick={() => file.current?.click()} disabled={progress != null} data-testid="edit-portrait">
            <span>{t('edit.portrait')}</span>
            <span className={styles.portraitBox}>
              <PersonAvatar src={me.data.portrait} size={64} eager />
              {progress != null && (
                <span className={styles.progress} data-testid="edit-progress">
                  {t('edit.uploading', { p: progress })}
                </span>
              )}
            </span>
          </button>
          <input ref={file} type="file" accept="image/*" className={styles.hidden} onChange={onFile} data-testid="edit-file" tabIndex={-1} aria-hidden="true" />
        </div>

        <div className={styles.form}>
          <label className={styles.field}>
            <span className={styles.label}>{t('edit.name')}</span>
            <input
              className={styles.input}
              value={form.name}
              maxLength={NAME_MAX * 2}
              placeholder={t('edit.namePlaceholder', { min: NAME_MIN, max: NAME_MAX })}
              onChange={(e) => setForm({ ...form, name: e.target.value })}
              enterKeyHint="done"
              data-testid="edit-name"
            />
          </label>
          {error?.field === 'name' && (
            <p className={styles.error} role="alert" data-testid="edit-error">
              {error.message}
            </p>
          )}
          <div className={styles.field}>
            <span className={styles.label}>{t('edit.gender')}</span>
            <div className={styles.segment} role="radiogroup" aria-label={t('edit.gender')}>
              {GENDERS.map((g) => (
                <button
                  key={g}
                  type="button"
                  role="radio"
                  aria-checked={form.gender === g}
                  className={`${styles.segBtn} ${form.gender === g ? styles.segOn : ''}`}
                  onClick={() => setForm({ ...form, gender: g })}
                  data-testid={`edit-gender-${g}`}
                >
                  {tk(`edit.gender.${g}`)}
                </button>
              ))}
            </div>
          </div>
          <label className={`${styles.field} ${styles.fieldCol}`}>
            <span className={styles.label}>{t('edit.bio')}</span>
            <textarea
              className={styles.textarea}
              value={form.bio}
              placeholder={t('edit.bioPlaceholder', { max: BIO_MAX })}
              onChange={(e) => setForm({ ...form, bio: e.target.value.replace(/[\r\n]+/g, ' ') })}
              data-testid="edit-bio"
            />
            <span className={`${styles.counter} ${length(form.bio.trim()) > BIO_MAX ? styles.over : ''}`}>
              {length(form.bio.trim())}/{BIO_MAX}
            </span>
          </label>
          {error?.field === 'bio' && (
            <p className={styles.error} role="alert" data-testid="edit-error">
              {error.message}
            </p>
          )}
        </div>

        <div className={styles.save}>
          <button type="button" className={`${styles.button} ${styles.primary} prima-hit`} onClick={onSave} disabled={save.isPending || progress != null} data-testid="edit-save">
            {t('edit.save')}
          </button>
        </div>
        {picked && <Cropper image={picked} onCancel={() => setPicked(null)} onCrop={(b) => void onCrop(b)} />}
      </>
    )

  return (
    <div className={ui.page} data-testid="profile-edit">
      <NavBar title={t('route.profileedit.title')} back="/myhome" />
      <main>{body}</main>
    </div>
  )
}
