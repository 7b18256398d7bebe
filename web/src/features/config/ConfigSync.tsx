// Keeps the config store in step with the server: the tag list and the
// delivery domains load once the app is running, in the background.
import { useEffect } from 'react'
import { useConfigStore } from '@/stores/config'
import { useDomains } from './api/get-domains'
import { useTags } from './api/get-tags'

export function ConfigSync() {
  const tags = useTags()
  const domains = useDomains()
  const setTags = useConfigStore((s) => s.setTags)
  const setDomains = useConfigStore((s) => s.setDomains)
  useEffect(() => {
    if (tags.data) setTags(tags.data)
  }, [tags.data, setTags])
  useEffect(() => {
    if (domains.data) setDomains(domains.data)
  }, [domains.data, setDomains])
  return null
}
