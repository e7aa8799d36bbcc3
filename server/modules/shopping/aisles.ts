// Guesses an item's aisle from its name with the built-in dictionary (aisle-words.ts): the longest
// phrase first, then the last word (English puts the thing last: "strawberry yoghurt" is dairy),
// each tried as written and in the singular. Anything unknown is `other`.
import { AISLE_WORDS, type Aisle } from './aisle-words.js';

const DICTIONARY = new Map<string, Aisle>();
for (const [aisle, words] of Object.entries(AISLE_WORDS) as [Aisle, string[]][]) for (const w of words) if (!DICTIONARY.has(w)) DICTIONARY.set(w, aisle);

const singulars = (w: string): string[] => {
  const out = [w];
  if (w.endsWith('ies') && w.length > 4) out.push(`${w.slice(0, -3)}y`);
  if (w.endsWith('oes') || w.endsWith('ches') || w.endsWith('shes') || w.endsWith('xes')) out.push(w.slice(0, -2));
  if (w.endsWith('s') && !w.endsWith('ss') && w.length > 3) out.push(w.slice(0, -1));
  return out;
};

/** The words of a name, in lower case, without amounts ("2 x 500g Milk" → ["milk"]). */
export function wordsOf(name: string): string[] {
  return name
    .toLowerCase()
    .replace(/[^\p{L}\s'-]+/gu, ' ')
    .replace(/[-']/g, ' ')
    .split(/\s+/)
    .filter((w) => w.length > 0 && !/^(g|kg|ml|l|cl|x|pack|packs|of|a|an|the|and|with)$/.test(w));
}

/** The aisle an item of that name is usually in. */
export function guessAisle(name: string): Aisle {
  const words = wordsOf(name);
  for (let n = Math.min(3, words.length); n >= 1; n--) {
    for (let start = words.length - n; start >= 0; start--) {
      const head = words.slice(start, start + n - 1).join(' ');
      for (const last of singulars(words[start + n - 1]!)) {
        const hit = DICTIONARY.get(head ? `${head} ${last}` : last);
        if (hit) return hit;
      }
    }
  }
  return 'other';
}

/** The aisle of a product from its categories (most specific last, as Open Food Facts lists them), then its name. */
export function guessAisleOfProduct(name: string, categories: readonly string[]): Aisle {
  for (const c of [...categories].reverse()) {
    const a = guessAisle(c);
    if (a !== 'other') return a;
  }
  return guessAisle(name);
}
