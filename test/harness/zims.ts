// The fixture ZIM archives (test/fixtures/zim/make-test-zims.sh, Debian zim-tools) in a temp
// folder, for API tests and benchmarks that run the real kiwix-serve.
//
// In a vitest run the archives are built once and shared: test/harness/global-setup.ts names a
// per-run folder in HEARTH_TEST_ZIMS_DIR, the first file that asks builds every kind there (the
// broken ones and the book pack without an index too) and the others wait for it. Tests only read
// these files (they copy one before changing it), so sharing them changes nothing a test sees.
// Outside vitest (the benchmarks) each call builds its own.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeTempDir } from './temp-dir.js';

const SCRIPT = path.resolve(import.meta.dirname, '../fixtures/zim/make-test-zims.sh');
/** Set by test/harness/global-setup.ts: the folder this run's archives are built in, once. */
export const SHARED_ZIMS_ENV = 'HEARTH_TEST_ZIMS_DIR';
const NO_INDEX_FILE = 'fixturenoindex_en_all_2024-05.zim';
/** How long a file waits for another one's build before it fails saying so. */
const SHARED_BUILD_WAIT_MS = 120_000;

export interface TestZims {
  dir: string;
  /** fixtures.json written by the script (paths, redirects, URL names). */
  fixtures: any;
  encyclopedia: string;
  books: string;
  /** The book pack again, built with `zimwriterfs -j`: no full-text index (search falls back to suggest). */
  noIndex?: string;
  /** Removes a private build; a shared one stays until the run ends. */
  remove(): void;
}

interface BuildOptions {
  withBroken?: boolean;
  withNoIndex?: boolean;
}

/** The kiwix-serve on PATH (Debian kiwix-tools). */
export const kiwixServeOnPath = () => execFileSync('sh', ['-c', 'command -v kiwix-serve']).toString().trim();

export function buildTestZims(opts: BuildOptions = {}): TestZims {
  const shared = process.env[SHARED_ZIMS_ENV];
  if (shared) return describeBuild(sharedBuild(shared), opts, () => {});
  const temp = makeTempDir('hearth-zims-');
  buildInto(temp.dir, opts);
  return describeBuild(temp.dir, opts, temp.remove);
}

function buildInto(dir: string, opts: BuildOptions): void {
  execFileSync('bash', [SCRIPT, dir], { env: { ...process.env, WITH_BROKEN: opts.withBroken ? '1' : '0' }, stdio: 'ignore' });
  if (opts.withNoIndex) {
    execFileSync(
      'zimwriterfs',
      ['-j', '--welcome=index.html', '--illustration=img/icon48.png', '--language=eng', '--name=fixturenoindex_en_all', '--title=Fixture Books (no index)', '--description=The fixture books without a full-text index', '--creator=Household Fixtures', '--publisher=Household Test Lab', '--threads=1', path.join(dir, 'src-books'), path.join(dir, NO_INDEX_FILE)],
      { stdio: 'ignore' },
    );
  }
}

/**
 * The run's shared build in `root`: the first caller (mkdir is atomic across the worker processes)
 * builds every kind and writes `ready` (or `failed` with the reason); the others wait for one.
 */
function sharedBuild(root: string): string {
  const dir = path.join(root, 'zims');
  const ready = path.join(root, 'ready');
  const failed = path.join(root, 'failed');
  let builder = false;
  try {
    mkdirSync(dir);
    builder = true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  if (builder) {
    try {
      buildInto(dir, { withBroken: true, withNoIndex: true });
    } catch (err) {
      writeFileSync(failed, String(err));
      throw err;
    }
    writeFileSync(ready, '');
    return dir;
  }
  const tick = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + SHARED_BUILD_WAIT_MS;
  while (!existsSync(ready)) {
    if (existsSync(failed)) throw new Error(`building the test ZIMs failed in another test file: ${readFileSync(failed, 'utf8')}`);
    if (Date.now() > deadline) throw new Error(`the test ZIMs in ${dir} were not ready after ${SHARED_BUILD_WAIT_MS / 1000} s (did the file building them stop?)`);
    Atomics.wait(tick, 0, 0, 50); // a synchronous sleep: buildTestZims stays synchronous
  }
  return dir;
}

function describeBuild(dir: string, opts: BuildOptions, remove: () => void): TestZims {
  const fixtures = JSON.parse(readFileSync(path.join(dir, 'fixtures.json'), 'utf8'));
  return {
    dir,
    fixtures,
    encyclopedia: path.join(dir, fixtures.encyclopedia.file),
    books: path.join(dir, fixtures.books.file),
    noIndex: opts.withNoIndex ? path.join(dir, NO_INDEX_FILE) : undefined,
    remove,
  };
}
