// `npm run bench [-- name ...]`: runs the named benchmarks (all when none is named).
const benches: Record<string, () => Promise<{ run(): Promise<void> }>> = {
  startup: () => import('./startup.js'),
  download: () => import('./download.js'),
  archives: () => import('./archives.js'),
  'reader-search': () => import('./reader-search.js'),
  search: () => import('./search.js'),
  capture: () => import('./capture.js'),
  'capture-phases': () => import('./capture-phases.js'),
  'bookmarks-import': () => import('./bookmarks-import.js'),
  'http-load': () => import('./http-load.js'),
  webapp: () => import('./webapp.js'),
  'first-screen': () => import('./first-screen.js'),
  chat: () => import('./chat.js'),
  'inventory-manual': () => import('./inventory-manual.js'),
  'inventory-ocr': () => import('./inventory-ocr.js'),
  'inventory-load': () => import('./inventory-load.js'),
  inventory: () => import('./inventory.js'),
  'inventory-import': () => import('./inventory-import.js'),
  image: () => import('./image.js'),
  media: () => import('./media.js'),
  https: () => import('./https.js'),
  voice: () => import('./voice.js'),
  'today-news': () => import('./today-news.js'),
  'content-dials': () => import('./content-dials.js'),
  maps: () => import('./maps.js'),
  'reader-load': () => import('./reader-load.js'),
  'smart-home': () => import('./smart-home.js'),
  tools: () => import('./tools.js'),
  storage: () => import('./storage.js'),
  podcasts: () => import('./podcasts.js'),
  vision: () => import('./vision.js'),
};

const names = process.argv.slice(2).filter((a) => !a.startsWith('-'));
for (const name of names.length ? names : Object.keys(benches)) {
  const load = benches[name];
  if (!load) {
    console.error(`unknown benchmark ${name}; have: ${Object.keys(benches).join(', ')}`);
    process.exit(2);
  }
  await (await load()).run();
}
