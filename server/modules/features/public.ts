// What other modules may use of the features module besides its service: the catalog's type.
export type { Catalog } from './catalog.js';
