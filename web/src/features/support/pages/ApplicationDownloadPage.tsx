// applicationdownload (/mine/applicationdownload): the apps as a list with
// their descriptions and a download button each.
import { AppList } from '@/features/support/components/AppList'

export default function ApplicationDownloadPage() {
  return <AppList variant="download" />
}
