// Paying with money: the pay types to choose from, then POST topay and off
// to the provider's page (payUrl; the result page when the order has none
// to open). The return path is remembered per order
// so the result page can bring the user back. One tap is one intent: a
// retry after a lost answer resends its idempotency key.
import { useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import { useMutation } from '@tanstack/react-query'
import { t } from '@/i18n'
import { ApiError } from '@/lib/api'
import { Intent, isRetryable } from '@/lib/purchase'
import { newIdempotencyKey, yuan } from '@/lib/wallet'
import { Sheet } from '@/components/Sheet'
import { useUserStore } from '@/stores/user'
import { reportPayError, topay, type TopayBody } from '@/features/wallet/api/topup'
import { afterTopay, payTypeName, rememberReturn } from '@/features/wallet/result'
import type { PayType } from '@/features/wallet/types'
import styles from '@/features/wallet/pages/Pay.module.css'

// usePay starts a money payment; the page shows errors (error) and the
// busy state.
export function usePay(from: string) {
  const intent = useRef(new Intent(() => newIdempotencyKey('pay')))
  const uid = useUserStore((s) => s.user?.uid ?? null)
  const navigate = useNavigate()
  const [error, setError] = useState<string | null>(null)
  const m = useMutation({
    mutationFn: (body: TopayBody) => topay(body, intent.current.keyFor(body)),
    onSuccess: (order) => {
      intent.current.settle()
      rememberReturn(order.orderNo, from)
      const next = afterTopay(order)
      if ('open' in next) window.location.assign(next.open)
      else navigate(next.go)
    },
    onError: (err, body) => {
      if (!isRetryable(err)) intent.current.settle()
      const tip = err instanceof ApiError ? err.tip : String(err)
      setError(tip)
      void reportPayError(
        {
          payname: body.payType,
          payid: `${body.productType}:${body.productID}`,
          paytype: body.payType,
          payadds: window.location.pathname,
          emsg: err instanceof ApiError ? `${err.status} ${err.tip} ${err.msg}` : String(err),
        },
        uid,
      )
    },
  })
  return {
    pay: (body: TopayBody) => {
      setError(null)
      m.mutate(body)
    },
    busy: m.isPending || m.isSuccess,
    error,
  }
}

export function PayTypeSheet({
  title,
  amount,
  payTypes,
  onPay,
  busy,
  error,
  onClose,
}: {
  title: string
  amount: number
  payTypes: PayType[]
  onPay: (payType: string) => void
  busy: boolean
  error: string | null
  onClose: () => void
}) {
  const [code, setCode] = useState(payTypes[0]?.code ?? '')
  return (
    <Sheet title={title} onClose={onClose} testid="paytype-sheet">
      <fieldset className={styles.payTypes}>
        <legend className={styles.sectionTitle}>{t('topup.payType')}</legend>
        {payTypes.map((p) => (
          <label key={p.code} className={styles.payType}>
            <input type="radio" name="sheet-paytype" checked={code === p.code} onChange={() => setCode(p.code)} data-testid="paytype" data-code={p.code} />
            {payTypeName(p)}
          </label>
        ))}
      </fieldset>
      {error && (
        <p className={styles.payError} role="alert" data-testid="pay-error">
          {error}
        </p>
      )}
      <div className={`${styles.actions} ${styles.sheetActions}`}>
        <button type="button" className={styles.secondary} onClick={onClose}>
          {t('common.cancel')}
        </button>
        <button type="button" className={styles.primary} disabled={busy || code === ''} onClick={() => onPay(code)} data-testid="pay-go">
          {busy ? t('topup.paying') : t('topup.pay', { n: yuan(amount) })}
        </button>
      </div>
    </Sheet>
  )
}
