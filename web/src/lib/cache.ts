/** Local cache lifetime (spec §9): 30 minutes unless said otherwise. */
export const CACHE_LIFETIME_MS = 30 * 60_000;

interface Entry<T> {
  value: T;
  expiresAt: number;
}

/**
 * A value kept in localStorage with an expiry, so a reload shows the last
 * known state at once while fresh data loads. A stale, missing or unreadable
 * entry reads as null. Storage can be unavailable (private windows): then
 * nothing is cached and nothing fails.
 */
export function cached<T>(key: string, lifetimeMs = CACHE_LIFETIME_MS, now: () => number = Date.now) {
  return {
    read(): T | null {
      try {
        const raw = localStorage.getItem(key);
        if (raw === null) return null;
        const entry = JSON.parse(raw) as Entry<T>;
        if (typeof entry.expiresAt !== 'number' || entry.expiresAt <= now()) {
          localStorage.removeItem(key);
          return null;
        }
        return entry.value;
      } catch {
        return null;
      }
    },
    write(value: T) {
      try {
        localStorage.setItem(key, JSON.stringify({ value, expiresAt: now() + lifetimeMs } satisfies Entry<T>));
      } catch {
        // Quota or privacy settings: the cache is only a head start.
      }
    },
    clear() {
      try {
        localStorage.removeItem(key);
      } catch {
        // As above.
      }
    },
  };
}

/** Logout clears all local storage (spec §4), not only our keys. */
export function clearLocalStorage() {
  try {
    localStorage.clear();
  } catch {
    // Unavailable storage holds nothing to clear.
  }
}
