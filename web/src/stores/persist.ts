// Zustand's persist middleware writes through src/lib/storage, so every
// store lands under the one prima_ prefix and a storage failure (Safari
// private mode, full quota) is swallowed rather than breaking the app.
import type { PersistStorage, StorageValue } from 'zustand/middleware'
import { storage } from '@/lib/storage'

export function primaStorage<S>(): PersistStorage<S> {
  return {
    getItem: (name) => storage.get<StorageValue<S>>(name),
    setItem: (name, value) => storage.set(name, value),
    removeItem: (name) => storage.remove(name),
  }
}
