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
import { deflateSync } from 'node:zlib';
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

/**
 * A small Wikipedia-like archive with a day article ("May 20", path A/May_20) as mwoffliner writes
 * it: h2 sections Events / Births / Deaths / Holidays_and_observances (one inside <details>, as newer
 * archives have), year–dash lines with links, a BC year, reference marks, a nested holiday list and
 * a "See also" section that is not part of the day. Built with zimwriterfs into `dir`; returns its path.
 */
export function buildWikipediaDayZim(dir: string): string {
  const src = path.join(dir, 'src-wikipedia');
  const write = (rel: string, data: string | Buffer) => {
    const p = path.join(src, rel);
    mkdirSync(path.dirname(p), { recursive: true });
    writeFileSync(p, data);
  };
  const page = (title: string, body: string) =>
    `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>\n<body>\n<h1>${title}</h1>\n${body}\n</body></html>\n`;
  write(
    'A/May_20',
    page(
      'May 20',
      `<p><b>May 20</b> is the 140th day of the year.</p>
<details data-level="2" open=""><summary class="section-heading"><h2 id="Events">Events</h2></summary><section>
<h3 id="Pre-1600">Pre-1600</h3>
<ul>
<li><a href="./325_BC" title="325 BC">325 BC</a> – A harbour lighthouse is lit for the first time at <a href="./Example_Point">Example Point</a>.</li>
<li><a href="./1498">1498</a> – The <a href="./Example_Ferry" title="Example Ferry">first ferry</a> crosses the sound.<sup class="reference"><a href="#cite_note-1">[1]</a></sup></li>
</ul>
<h3 id="1901–present">1901–present</h3>
<ul><li><a href="./1931">1931</a> – A ferry line opens between <a href="./Island_Town">Island Town</a> and <a href="../A/Harbourton">Harbourton</a>.</li></ul>
</section></details>
<h2 id="Births"><span class="mw-headline">Births</span></h2>
<ul><li><a href="./1470">1470</a> – <a href="./Pietro_Example">Pietro Example</a>, harbour master (d. 1547)</li>
<li><a href="./1902">1902</a> — <a href="./Ada_Sample">Ada Sample</a>, engineer</li></ul>
<h2 id="Deaths">Deaths</h2>
<ul><li><a href="./1506">1506</a> – <a href="./Cristo_Example">Cristo Example</a>, navigator (b. 1451)</li></ul>
<h2 id="Holidays_and_observances">Holidays and observances</h2>
<ul><li>Christian feast day:<ul><li><a href="./Saint_Example">Saint Example</a></li></ul></li>
<li><a href="./Harbour_Day">Harbour Day</a> (Examplia)</li></ul>
<h2 id="See_also">See also</h2>
<ul><li><a href="./List_of_days">1999 – not a day event</a></li></ul>`,
    ),
  );
  for (const t of ['Example_Point', 'Example_Ferry', 'Island_Town', 'Harbourton', 'Pietro_Example', 'Ada_Sample', 'Cristo_Example', 'Saint_Example', 'Harbour_Day', '1931', '1498']) {
    write(`A/${t}`, page(t.replace(/_/g, ' '), `<p>${t.replace(/_/g, ' ')} is an article of the test archive.</p>`));
  }
  write('A/Main_Page', page('Wikipedia', '<p><a href="May_20">May 20</a></p>'));
  write('I/favicon.png', tinyPng());
  const file = path.join(dir, 'wikipedia_en_all_nopic_2024-05.zim');
  execFileSync(
    'zimwriterfs',
    ['--welcome=A/Main_Page', '--illustration=I/favicon.png', '--language=eng', '--name=wikipedia_en_all_nopic', '--title=Wikipedia', '--description=A test Wikipedia with a day article', '--creator=Household Fixtures', '--publisher=Household Test Lab', '--threads=1', src, file],
    { stdio: 'ignore' },
  );
  return file;
}

/** A 48×48 RGB PNG (zimwriterfs wants an illustration of that size). */
function tinyPng(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type), data]);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, c]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(48, 0);
  ihdr.writeUInt32BE(48, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const raw = Buffer.concat(Array.from({ length: 48 }, () => Buffer.concat([Buffer.from([0]), Buffer.alloc(48 * 3, 0x66)])));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}
