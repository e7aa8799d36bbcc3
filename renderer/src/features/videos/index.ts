// The Videos feature's public surface: what the shell may use (eslint.config.js: a feature imports
// another only through its index). Pages are loaded lazily (pages.ts); the video player's own code
// is loaded once a video plays (VideoPlayerSlot).
export { VideoPlayerSlot } from './VideoPlayerSlot';
export { useNowWatching } from './video-store';
