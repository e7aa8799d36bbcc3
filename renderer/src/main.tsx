import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import '@fontsource-variable/inter/wght.css';
import './ui/styles.css';
import './ui/components.css';

// when the app's own script starts running (the browser tests compare the start-up loader's requests with it)
performance.mark('hearth:app-start');

// Inter (the app's typeface, 48 KB for its Latin face) is not part of a browser's first visit: the
// words are drawn in its stand-in (styles.css: a local face sized to match it), and Inter is only
// fetched, once the page's first words are on screen and the browser is idle, for the next visit.
// Putting it in place on a page already drawn cost the phone's main thread each size and weight
// measured anew and the whole page laid out again (100-200 ms of a 4x slower processor's first
// seconds, bench/first-screen.ts), and on a phone without DejaVu Sans the words moved. A browser
// that has had it (remembered in localStorage; the file itself is immutable and kept by the
// service worker) uses it from the start.
const FONT_KEPT = 'hearth:font-inter';
const useInter = () => document.documentElement.classList.add('font-inter');

function fetchInter(): void {
  document.fonts.load('1em "Inter Variable"').then(
    (faces) => {
      if (faces.length === 0) return;
      try {
        localStorage.setItem(FONT_KEPT, '1');
      } catch {
        // storage refused (private mode): fetched again next time, nothing else changes
      }
    },
    () => undefined, // not arrived: asked for again on the next visit
  );
}

/** Runs `then` once, when the browser is idle after the first largest paint that is not the splash. */
function afterFirstWords(then: () => void): void {
  let done = false;
  const go = () => {
    if (done) return;
    done = true;
    if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(then, { timeout: 2000 });
    else setTimeout(then, 200);
  };
  if (PerformanceObserver.supportedEntryTypes?.includes('largest-contentful-paint')) {
    const observer = new PerformanceObserver((list) => {
      const words = list.getEntries().some((e) => {
        const el = (e as PerformanceEntry & { element?: Element | null }).element;
        return !!el && !el.closest('.splash');
      });
      if (!words) return;
      observer.disconnect();
      go();
    });
    observer.observe({ type: 'largest-contentful-paint', buffered: true });
  }
  // a screen with nothing larger than the splash's mark reports no such paint; a touch or a key
  // ends the reports
  setTimeout(go, 3000);
}

let kept = false;
try {
  kept = localStorage.getItem(FONT_KEPT) === '1';
} catch {
  // storage refused: Inter is fetched after the first words, as on a first visit
}
if (kept) useInter();
else afterFirstWords(fetchInter);

const root = document.getElementById('root');
if (!root) throw new Error('index.html is missing #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
