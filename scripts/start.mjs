// `npm start`: builds the server and web app when the build is missing or older than the
// sources, then runs the headless server in this process.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outputs = [path.join(root, 'dist/server/cli.js'), path.join(root, 'dist/web/index.html')];

function newest(dir) {
  let t = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const p = path.join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

const built = outputs.every((f) => existsSync(f));
const builtAt = built ? Math.min(...outputs.map((f) => statSync(f).mtimeMs)) : 0;
const sourcesAt = Math.max(...['server', 'migrations', 'renderer'].map((d) => newest(path.join(root, d))));
if (!built || sourcesAt > builtAt) {
  console.log(built ? 'Sources changed since the last build; building…' : 'Building Hearth (first start)…');
  const r = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
await import(pathToFileURL(path.join(root, 'dist/server/cli.js')).href);
