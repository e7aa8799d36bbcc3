import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import '@fontsource-variable/inter/wght.css';
import './ui/styles.css';
import './ui/components.css';

// Inter's Latin face (the one every screen's words use) is asked for once the splash has painted,
// beside the start-up requests, instead of when the first words are laid out after the session's
// answer. Not as a <link rel=preload>: a preloaded font holds the first paint back until it arrives
// (the splash's paint waited for it, about 0.6 s on bench/webapp.ts's slow phone line).
// document.fonts.load starts the stylesheet's own @font-face (font-display: swap), so it is one request.
// "Once the splash has painted" is the first contentful paint: a frame's callback comes after the
// empty page's first frame, before the splash, and the font then still counted against that paint.
const loadFont = () => void document.fonts.load('1em "Inter Variable"').catch(() => undefined);
if (PerformanceObserver.supportedEntryTypes?.includes('paint')) {
  new PerformanceObserver((list, observer) => {
    if (list.getEntriesByName('first-contentful-paint').length === 0) return;
    observer.disconnect();
    setTimeout(loadFont, 0);
  }).observe({ type: 'paint', buffered: true });
} else {
  setTimeout(loadFont, 0);
}

const root = document.getElementById('root');
if (!root) throw new Error('index.html is missing #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
