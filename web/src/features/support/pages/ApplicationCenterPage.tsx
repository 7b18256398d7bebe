// applicationcenter (/mine/applicationcenter): the recommended apps as a grid.
import { AppList } from '@/features/support/components/AppList'

export default function ApplicationCenterPage() {
  return <AppList variant="center" />
}
