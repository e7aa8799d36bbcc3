// What other modules may use of Today: the feed-reading helpers (the podcasts module reads its feeds with them).
export { decodeBody, httpUrl, NotAFeedError, parseDate, parseOpml, plainText } from './feed-parse.js';
