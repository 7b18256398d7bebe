// userincomerecord (/mine/userincomerecord): income entries (see BillPage).
import { LedgerPage } from '@/features/withdraw/pages/BillPage'

export default function IncomeRecordPage() {
  return <LedgerPage kind="income" />
}
