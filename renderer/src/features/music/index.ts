// The music feature's public surface: what other features may use (eslint.config.js: a feature
// imports another only through its index). No page component here: pages are loaded lazily (pages.ts).
export { useMusicHistory } from './queries';
