// Ticks made while this phone cannot reach Hearth (no signal at the back of the shop): kept in
// localStorage in the order they were made, and sent in that order once the phone is back online.
// React-free; queries.ts owns the cache and decides when to send.

export interface QueuedTick {
  listId: string;
  itemId: string;
  checked: boolean;
}

const KEY = 'hearth.shopping.pending';

export function readQueue(): QueuedTick[] {
  try {
    const raw = JSON.parse(localStorage.getItem(KEY) ?? '[]') as unknown;
    return Array.isArray(raw) ? raw.filter((t): t is QueuedTick => typeof t === 'object' && t !== null && typeof (t as QueuedTick).itemId === 'string' && typeof (t as QueuedTick).checked === 'boolean') : [];
  } catch {
    return [];
  }
}

export function writeQueue(q: readonly QueuedTick[]): void {
  try {
    if (q.length === 0) localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, JSON.stringify(q));
  } catch {
    // storage full or switched off: the ticks stay in this page's memory only
  }
}

/** Adds a tick; a later tick of the same item replaces an earlier one still waiting (only the last state matters). */
export function enqueue(q: readonly QueuedTick[], t: QueuedTick): QueuedTick[] {
  return [...q.filter((x) => x.itemId !== t.itemId), t];
}

/** The list's items with the ticks still waiting applied, so a fresh answer from Hearth does not undo them on screen. */
export function withPending<T extends { id: string; checked: boolean }>(items: readonly T[], q: readonly QueuedTick[]): T[] {
  if (q.length === 0) return [...items];
  const pending = new Map(q.map((t) => [t.itemId, t.checked]));
  return items.map((i) => (pending.has(i.id) ? { ...i, checked: pending.get(i.id)! } : i));
}
