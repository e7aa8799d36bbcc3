// What other modules may use of Today: the feed-reading helpers (the podcasts module reads its feeds with them).
export { httpUrl, NotAFeedError, parseDate, plainText, readOpmlUpload } from './feed-parse.js';
