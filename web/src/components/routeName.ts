// The route-table name of the page being rendered. The route table wraps
// every page in this context, so a page that may serve more than one route
// (ComingSoon, today only for notfound) knows which screen it stands for.
import { createContext, useContext } from 'react'

export const RouteNameContext = createContext<string | null>(null)

export function useRouteName(): string | null {
  return useContext(RouteNameContext)
}
