// `npm start`: builds the server and web app when the build is missing or older than the
// sources, then runs the headless server: on Linux in a child process started with glibc's heap
// settings (server/platform/heap-tunables.ts: glibc reads them only at a process's start), elsewhere
// in this process.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
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
const cli = path.join(root, 'dist/server/cli.js');
const { heapTunablesEnv } = await import(pathToFileURL(path.join(root, 'dist/server/platform/heap-tunables.js')).href);
const tunables = heapTunablesEnv(process.env, process.platform);
if (Object.keys(tunables).length === 0) {
  await import(pathToFileURL(cli).href);
} else {
  const server = spawn(process.execPath, [...process.execArgv, cli, ...process.argv.slice(2)], { stdio: 'inherit', env: { ...process.env, ...tunables } });
  // passed on: SIGINT and SIGTERM shut the server down cleanly (server/run.ts), a second one is ignored
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => server.kill(signal));
  server.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 + (os.constants.signals[signal] ?? 0) : 1)));
}
