// userbroswer (/mine/userbroswer, the spec's spelling): the user's browse
// history, most recently played first.
import { MineVideosPage } from './MineVideosPage'

export default function UserBrowserPage() {
  return <MineVideosPage kind="history" />
}
