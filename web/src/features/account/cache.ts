// Clearing the cache (setting): everything this app keeps on the device
// except what the session and the user's choices need. Only keys with the
// app's prefix are touched; other sites' data on a shared origin is not ours.
import { PREFIX } from '@/lib/storage'

// KEEP are the stored keys that survive: the session token, the device id
// (a guest's identity), the signed-in user and the app settings (language,
// dark mode).
export const KEEP = new Set(['token', 'device_id', 'user', 'app'].map((k) => PREFIX + k))

// clearableKeys picks, from the keys in local storage, those to remove.
export function clearableKeys(keys: Iterable<string>): string[] {
  return [...keys].filter((k) => k.startsWith(PREFIX) && !KEEP.has(k))
}

// clearLocalCache removes them, and the browser's Cache Storage when there
// is any; it answers how many stored entries went.
export async function clearLocalCache(): Promise<number> {
  let n = 0
  try {
    const keys: string[] = []
    for (let i = 0; i < localStorage.length; i++) keys.push(localStorage.key(i) ?? '')
    for (const k of clearableKeys(keys)) {
      localStorage.removeItem(k)
      n++
    }
  } catch {
    // storage disabled: nothing stored to clear
  }
  try {
    if (typeof caches !== 'undefined') for (const name of await caches.keys()) await caches.delete(name)
  } catch {
    // Cache Storage unavailable (insecure origin): nothing cached there
  }
  return n
}
