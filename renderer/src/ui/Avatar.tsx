// A round avatar: the member's chosen avatar (an emoji or short text) or their initials, on a
// warm colour picked from their id so each person keeps the same colour everywhere.
import type { ReactElement } from 'react';

const TONES = 6;

export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  const first = Array.from(words[0]!)[0] ?? '';
  const last = words.length > 1 ? (Array.from(words[words.length - 1]!)[0] ?? '') : '';
  return (first + last).toUpperCase();
}

function tone(seed: string): number {
  let h = 0;
  for (const ch of seed) h = (h * 31 + ch.codePointAt(0)!) >>> 0;
  return h % TONES;
}

export function Avatar({ name, id, avatar, size = 'md' }: { name: string; id: string; avatar?: string | null; size?: 'sm' | 'md' | 'lg' }): ReactElement {
  return (
    <span className={`avatar avatar--${size} avatar--tone${tone(id)}`} aria-hidden="true">
      {avatar?.trim() ? avatar.trim() : initials(name)}
    </span>
  );
}
