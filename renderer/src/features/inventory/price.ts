// A price as people write it: "$2,199", "2.199,00 €", "£ 1 299.50", "CHF 1'299.–". Currency
// symbols, codes and spaces are dropped; the separators are read in the locale's way (its decimal
// and grouping marks from Intl), and where a mark could be either, a mark followed by exactly three
// digits groups thousands ("2,199" in en, "2.199" in de) while any other is the decimal point.

/** The locale's decimal and grouping marks, e.g. en-US: '.' and ','; de-DE: ',' and '.'. */
export function separators(locale?: string): { decimal: string; group: string } {
  const parts = new Intl.NumberFormat(locale).formatToParts(1234567.5);
  return {
    decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.',
    group: parts.find((p) => p.type === 'group')?.value ?? ',',
  };
}

/** The amount written in `text`, or null when it is not one (negative, two decimal points, letters between digits). */
export function parsePrice(text: string, locale?: string): number | null {
  const { decimal, group } = separators(locale);
  // currency symbols and codes, spaces of every kind, apostrophes (Swiss grouping) and a trailing ".–"
  let t = text
    .trim()
    .replace(/[.,]\s*[-–—]$/, '')
    .replace(/^[^\d.,-]+|[^\d.,]+$/g, '')
    .replace(/[\s\u00a0\u202f'’]/g, '');
  if (!/^\d[\d.,]*$|^[.,]\d+$/.test(t)) return null;
  const marks = [...new Set(t.replace(/\d/g, ''))];
  if (marks.length === 2) {
    // both: the last one is the decimal point
    const last = t[Math.max(t.lastIndexOf('.'), t.lastIndexOf(','))]!;
    t = t.split(last === '.' ? ',' : '.').join('').replace(last, '.');
  } else if (marks.length === 1) {
    const mark = marks[0]!;
    const groups = t.split(mark);
    const grouping = groups.length > 2 || (groups.length === 2 && groups[1]!.length === 3 && (mark === group || mark !== decimal) && groups[0] !== '' && groups[0] !== '0');
    if (groups.length > 2 && !groups.slice(1).every((g) => g.length === 3)) return null;
    t = grouping ? groups.join('') : groups.join('.');
  }
  const n = Number(t);
  return Number.isFinite(n) && n >= 0 ? n : null;
}
