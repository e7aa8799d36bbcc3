// Headless entry: `npm start` or `node dist/server/cli.js [--port N] [--host H] [--data-dir D]`.
import { runServer } from './run.js';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(`Usage: hearth [--port 8787] [--host 0.0.0.0] [--data-dir DIR] [--resources-dir DIR]
Environment: PORT, HOST, DATA_DIR, MODEL_RUNTIME_URL, LOG_LEVEL and the rest listed in README.md.`);
  process.exit(0);
}
runServer().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
