// Inter taking over from its stand-in on a page already drawn (main.tsx asks for it once the first
// words are on screen). The first time the browser draws Inter at a given size and weight it
// measures each glyph anew (a variable font: every glyph's shape and width is worked out for that
// weight), so putting Inter on the whole page at once was one long layout: on a phone's processor
// (Lighthouse's ×4) 45–90 ms, the longest task of the Reader list and an article, for a page of a
// few hundred words in a dozen sizes and weights. Here each size and weight the page uses is first
// drawn out of sight with the page's letters, one per task (a few ms each), and only then does
// `.font-inter` go on <html>: the page changes face in one frame, as before, in a task that finds
// every glyph already measured. The stand-in is sized to match Inter, so nothing moves.

const FACE = "'Inter Variable'";
/** An article in a script with thousands of letters is not worth measuring ahead: the first ones do. */
const MAX_LETTERS = 200;

/** The sizes and weights (as a CSS `font` prefix: style, weight, size) of the words under `root`, and their letters. */
export function textStyles(root: Element): { styles: string[]; letters: string } {
  const styles = new Set<string>();
  const letters = new Set<string>();
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
    const parent = node.parentElement;
    if (!parent || !node.data.trim()) continue;
    const style = getComputedStyle(parent);
    if (style.display === 'none') continue;
    styles.add(`${style.fontStyle} ${style.fontWeight} ${style.fontSize}`);
    for (const letter of node.data) if (letters.size < MAX_LETTERS && letter.trim()) letters.add(letter);
  }
  return { styles: [...styles], letters: [...letters].join('') };
}

/** Puts Inter (already loaded) in place of its stand-in, having measured it first (see the top of this file). */
export function swapInInter(): void {
  const html = document.documentElement;
  const done = () => html.classList.add('font-inter');
  if (document.visibilityState !== 'visible') {
    // nothing is being drawn, so nothing to spread out
    done();
    return;
  }
  const { styles, letters } = textStyles(document.body);
  const box = document.createElement('div');
  box.className = 'font-warm';
  box.setAttribute('aria-hidden', 'true');
  document.body.append(box);
  let next = 0;
  const step = () => {
    const style = styles[next++];
    if (style === undefined || !box.isConnected) {
      box.remove();
      done();
      return;
    }
    const sample = document.createElement('span');
    sample.style.font = `${style} ${FACE}`;
    sample.textContent = letters;
    box.append(sample);
    void sample.offsetWidth; // laid out (so measured) in this task, not in the next frame's
    setTimeout(step, 0);
  };
  setTimeout(step, 0);
}
