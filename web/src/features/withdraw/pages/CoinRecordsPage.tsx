// usercoinrecords (/mine/usercoinrecords): the coin bill (see BillPage).
import { LedgerPage } from '@/features/withdraw/pages/BillPage'

export default function CoinRecordsPage() {
  return <LedgerPage kind="coins" />
}
