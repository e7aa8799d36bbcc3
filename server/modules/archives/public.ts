// What other modules (and the container) may use of the archives module besides its schema and its
// services' types: the address of an archive article in the web app's viewer.
export { archiveArticleUrl } from './search-provider.js';
