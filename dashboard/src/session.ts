/**
 * The caller's API key, typed in once per tab. sessionStorage, not localStorage: the key leaves
 * with the tab instead of outliving it, and it is never part of the bundle or the page.
 */
const STORAGE_KEY = 'marque.dashboard.apiKey';

export const KEY_PATTERN = /^mq_[0-9a-f]{48}$/;

export function readKey(): string | null {
  try {
    return sessionStorage.getItem(STORAGE_KEY);
  } catch {
    // Storage disabled (privacy settings): the key then lives only as long as the page.
    return null;
  }
}

export function saveKey(key: string): void {
  try {
    sessionStorage.setItem(STORAGE_KEY, key);
  } catch {
    // See readKey.
  }
}

export function forgetKey(): void {
  try {
    sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // See readKey.
  }
}
