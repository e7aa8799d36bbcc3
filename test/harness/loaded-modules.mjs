// Preloaded with `node --import` into a server process (startHearthProcess's nodeArgs): records
// every module the process loads — ES modules through a load hook (loaded-modules-hooks.mjs, in
// Node's hooks thread), CommonJS ones from require.cache — and on SIGUSR2 writes their file URLs or
// paths, as a JSON array, to the file named by HEARTH_LOADED_MODULES_FILE. Plain JavaScript: it is
// loaded before any TypeScript hook could be.
import { renameSync, writeFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

const out = process.env.HEARTH_LOADED_MODULES_FILE;
if (!out) throw new Error('loaded-modules.mjs needs HEARTH_LOADED_MODULES_FILE');
const require = createRequire(import.meta.url);
const esm = new Set();
const { port1, port2 } = new MessageChannel();
port1.on('message', (url) => esm.add(url));
port1.unref();
register('./loaded-modules-hooks.mjs', { parentURL: import.meta.url, data: { port: port2 }, transferList: [port2] });
process.on('SIGUSR2', () => {
  // written whole, then renamed: a reader never sees half a list
  writeFileSync(`${out}.part`, JSON.stringify([...esm, ...Object.keys(require.cache)]));
  renameSync(`${out}.part`, out);
});
