// The fixture ZIM archives (test/fixtures/zim/make-test-zims.sh, Debian zim-tools) in a temp
// folder, for API tests and benchmarks that run the real kiwix-serve.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { makeTempDir } from './temp-dir.js';

const SCRIPT = path.resolve(import.meta.dirname, '../fixtures/zim/make-test-zims.sh');

export interface TestZims {
  dir: string;
  /** fixtures.json written by the script (paths, redirects, URL names). */
  fixtures: any;
  encyclopedia: string;
  books: string;
  /** The book pack again, built with `zimwriterfs -j`: no full-text index (search falls back to suggest). */
  noIndex?: string;
  remove(): void;
}

/** The kiwix-serve on PATH (Debian kiwix-tools). */
export const kiwixServeOnPath = () => execFileSync('sh', ['-c', 'command -v kiwix-serve']).toString().trim();

export function buildTestZims(opts: { withBroken?: boolean; withNoIndex?: boolean } = {}): TestZims {
  const temp = makeTempDir('hearth-zims-');
  execFileSync('bash', [SCRIPT, temp.dir], { env: { ...process.env, WITH_BROKEN: opts.withBroken ? '1' : '0' }, stdio: 'ignore' });
  const fixtures = JSON.parse(readFileSync(path.join(temp.dir, 'fixtures.json'), 'utf8'));
  let noIndex: string | undefined;
  if (opts.withNoIndex) {
    noIndex = path.join(temp.dir, 'fixturenoindex_en_all_2024-05.zim');
    execFileSync(
      'zimwriterfs',
      ['-j', '--welcome=index.html', '--illustration=img/icon48.png', '--language=eng', '--name=fixturenoindex_en_all', '--title=Fixture Books (no index)', '--description=The fixture books without a full-text index', '--creator=Household Fixtures', '--publisher=Household Test Lab', '--threads=1', path.join(temp.dir, 'src-books'), noIndex],
      { stdio: 'ignore' },
    );
  }
  return {
    dir: temp.dir,
    fixtures,
    encyclopedia: path.join(temp.dir, fixtures.encyclopedia.file),
    books: path.join(temp.dir, fixtures.books.file),
    noIndex,
    remove: temp.remove,
  };
}
