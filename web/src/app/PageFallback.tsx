// Shown only on a page's first visit while its code downloads (later
// navigations keep the old page on screen until the new one is ready). It
// waits a moment before showing anything, so a fast load does not flash.
import { useEffect, useState } from 'react'
import { Spinner } from '@/components/Spinner'

export function PageFallback() {
  const [shown, setShown] = useState(false)
  useEffect(() => {
    const id = setTimeout(() => setShown(true), 300)
    return () => clearTimeout(id)
  }, [])
  return (
    <div style={{ display: 'flex', justifyContent: 'center', paddingTop: 'calc(var(--prima-safe-top) + 35dvh)' }} aria-busy="true">
      {shown && <Spinner size={24} />}
    </div>
  )
}
