// Customer service (GET /api/app/im/whiteSign): the configured service
// address, fetched ahead so a tap opens it at once. Safari only lets a page
// open a new window from the tap itself, not after an await, so the address
// must already be known when the user taps. An http(s) address opens in a
// new window without a handle on this one; an app path (the default install
// points at the feedback page) opens in the app; none configured shows a
// clear message instead of a dead link.
import { useQuery } from '@tanstack/react-query'
import { useNavigate } from 'react-router'
import { t } from '@/i18n'
import { api, ApiError } from '@/lib/api'
import { openLink } from '@/lib/links'
import { toast } from '@/lib/toast'

export interface ServiceLink {
  url: string
  title: string
}

export const customerServiceKey = ['support', 'whiteSign'] as const

export function getCustomerService(): Promise<ServiceLink> {
  return api.get<ServiceLink>('/api/app/im/whiteSign')
}

// useCustomerService gives the state of the address and open(), to call
// from a tap.
export function useCustomerService() {
  const navigate = useNavigate()
  const q = useQuery({
    queryKey: customerServiceKey,
    queryFn: getCustomerService,
    staleTime: 5 * 60_000,
    // 404 is "none configured": an answer, not a failure to retry.
    retry: (n, err) => !(err instanceof ApiError && err.status === 404) && n < 2,
  })
  const none = q.error instanceof ApiError && q.error.status === 404
  const open = () => {
    if (q.data?.url) {
      openLink(q.data.url, navigate)
      return
    }
    if (q.isPending) {
      toast.text(t('sup.custLoading'))
      void q.refetch()
      return
    }
    if (none) toast.text(q.error instanceof ApiError && q.error.tip ? q.error.tip : t('sup.custNone'))
    else toast.fail(q.error instanceof ApiError && q.error.tip ? q.error.tip : t('state.error'))
    void q.refetch()
  }
  return { url: q.data?.url ?? '', none, pending: q.isPending, open }
}
