// The image feature's public surface: what other features may use (eslint.config.js: a feature imports
// another only through its index). No page component here: pages are loaded lazily (pages.ts).
export { IMAGE_KEY, useHistory } from './queries';
export { artifactApi, CREATE_HREF, HISTORY_HREF, PIPELINE_TEXT } from './types';
