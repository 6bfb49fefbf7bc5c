/**
 * Drafts: what someone types, kept in this browser per page until it is saved, so a closed dialog, another
 * tab of the manage page or a reload loses nothing. Only the person's own text is kept, never what the page
 * shows; signing out removes every draft (auth/oidc-session.tsx).
 */
const PREFIX = 'aandenken:draft:';

export type DraftKind = 'memory' | 'biography' | 'details';

export function draftKey(memorialId: string, kind: DraftKind): string {
  return `${PREFIX}${memorialId}:${kind}`;
}

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    // Storage can be switched off (private mode, site settings): then there are simply no drafts.
    return null;
  }
}

export function readDraft<T>(key: string): T | null {
  try {
    const raw = storage()?.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

export function writeDraft(key: string, value: unknown): void {
  try {
    storage()?.setItem(key, JSON.stringify(value));
  } catch {
    // A full storage keeps the text on screen only; nothing to tell beyond the leave warning.
  }
}

export function clearDraft(key: string): void {
  try {
    storage()?.removeItem(key);
  } catch {
    // nothing kept, nothing to remove
  }
}

/** Removes every draft in this browser (on signing out, so the next person does not see them). */
export function clearAllDrafts(): void {
  const s = storage();
  if (!s) return;
  try {
    const keys: string[] = [];
    for (let i = 0; i < s.length; i++) {
      const k = s.key(i);
      if (k?.startsWith(PREFIX)) keys.push(k);
    }
    keys.forEach((k) => s.removeItem(k));
  } catch {
    // see clearDraft
  }
}
