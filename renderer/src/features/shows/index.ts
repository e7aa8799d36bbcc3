// The Shows feature's public surface: nothing other features use yet (eslint.config.js: a feature
// imports another only through its index). Pages are loaded lazily (pages.ts).
export { showHref } from './queries';
