// The media feature's public surface: what other features may use (eslint.config.js: a feature imports
// another only through its index). No page component here: pages are loaded lazily (pages.ts).
export { LINK_ACCOUNT_HREF, useDiscoverServers, useMediaConfig, useSaveMediaConfig } from './link-queries';
export { PinFlow } from './PinFlow';
export { PlexAccountRow } from './PlexAccountRow';
export { MEDIA_KEY, playHref, titleHref, useFeed, useMediaStatus } from './queries';
