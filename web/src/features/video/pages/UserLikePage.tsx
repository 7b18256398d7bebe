// userlike (/mine/userlike): the videos the user liked.
import { MineVideosPage } from './MineVideosPage'

export default function UserLikePage() {
  return <MineVideosPage kind="like" />
}
