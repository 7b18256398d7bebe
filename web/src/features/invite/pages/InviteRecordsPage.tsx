// usershareshenqing (/mine/usershareshenqing): the spec names it a
// promotion application (推广申请), but Prima has no promoter programme;
// it is the invite records, the list tab of the invite data page, and its
// bar says so (邀请记录) rather than promising an application.
import { InviteData } from '@/features/invite/pages/InviteDataPage'

export default function InviteRecordsPage() {
  return <InviteData route="usershareshenqing" defaultTab="list" />
}
