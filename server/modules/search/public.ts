// What other modules may use of the search module: the provider contract unified search gathers, and
// the text helpers the providers and chat tools share.
export { ProviderUnavailableError, type SearchContext, type SearchProvider } from './providers.js';
export { buildAnyMatch, buildMatch, clip, fitScore, keyWords, readableUrl } from './text.js';
