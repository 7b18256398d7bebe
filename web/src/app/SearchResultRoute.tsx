import SearchResultPage from '@/features/search/pages/SearchResultPage'
import { WithSearchCards } from './SearchRoutes'

export default function SearchResultRoute() {
  return (
    <WithSearchCards>
      <SearchResultPage />
    </WithSearchCards>
  )
}
