// Process entry for the Electron utilityProcess (and `node dist/server/entry.js`).
import { runServer } from './run.js';

runServer().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
