// antd-mobile's Dialog, loaded the first time a page asks for it: no page
// shows one on its first paint, so it stays out of the initial JS.
import type { DialogConfirmProps } from 'antd-mobile/es/components/dialog'
import { t } from '@/i18n'

type DialogModule = typeof import('antd-mobile/es/components/dialog')
let loading: Promise<DialogModule['default']> | null = null

// loadDialog loads the module once; a failed load (offline) is tried again
// on the next call rather than remembered.
export function loadDialog(): Promise<DialogModule['default']> {
  loading ??= import('antd-mobile/es/components/dialog').then(
    (m) => m.default,
    (e: unknown) => {
      loading = null
      throw e
    },
  )
  return loading
}

// confirm asks a yes/no question and resolves true when the user confirms.
// The cancel button says "cancel" unless the caller names it.
export async function confirm(props: DialogConfirmProps): Promise<boolean> {
  const Dialog = await loadDialog()
  return Dialog.confirm({ cancelText: t('common.cancel'), ...props })
}
