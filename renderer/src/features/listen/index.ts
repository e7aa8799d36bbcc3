// The Listen feature's public surface: what other features and the shell may use (eslint.config.js:
// a feature imports another only through its index). No page component here: pages are loaded
// lazily (pages.ts); the mini-player's own code is loaded once something plays (MiniPlayerSlot).
export { MiniPlayerSlot } from './MiniPlayerSlot';
export { stopPlaying, useNowPlaying } from './player-store';
