// userfav (/mine/userfav): the user's favourite videos (mine/collection).
import { MineVideosPage } from './MineVideosPage'

export default function UserFavPage() {
  return <MineVideosPage kind="fav" />
}
