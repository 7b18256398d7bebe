import SearchMorePage from '@/features/search/pages/SearchMorePage'
import { WithSearchCards } from './SearchRoutes'

export default function SearchMoreRoute() {
  return (
    <WithSearchCards>
      <SearchMorePage />
    </WithSearchCards>
  )
}
