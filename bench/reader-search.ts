// Reader search and list latency over 50,000 items with realistic text (READER_BENCH_ITEMS to
// change): a Zipf-distributed vocabulary of common English words plus a few thousand rarer ones,
// articles of 300-1500 words, titles, URLs on a few hundred domains, tags and collections, seeded
// through ReaderStore into the real SQLite of a real server. Then ~200 varied queries (one word,
// two words with a prefix, a domain word, a pasted URL) and the default / tag / collection lists
// go through ReaderItemsService.list, against a primary-key lookup and `select 1` in the same process.
import { performance } from 'node:perf_hooks';
import type { UserActor } from '../server/actor.js';
import { createServer } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { newItemRecord, type NewItem } from '../server/modules/reader/item-rows.js';
import { ReaderCollectionsStore } from '../server/modules/reader/collections-store.js';
import { ReaderStore } from '../server/modules/reader/store.js';
import { createMemoryLogger } from '../server/platform/logger.js';
import { FakeCaptureEngine } from '../test/fakes/capture-engine.js';
import { makeTempDir } from '../test/harness/temp-dir.js';

const ITEMS = Number(process.env.READER_BENCH_ITEMS ?? 50_000);
const QUERIES = 200;
const REPEATS = 3;

// A deterministic PRNG so every run seeds the same library.
let seed = 0x9e3779b9;
function rand(): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 0x100000000;
}
export const pick = <T>(a: readonly T[]): T => a[Math.floor(rand() * a.length)]!;
export const between = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));

export const COMMON = `the of and to a in is it you that he was for on are with as his they be at one have this from or had by not word but what some we can out other were all there when up use your how said an each she which do their time if will way about many then them write would like so these her long make thing see him two has look more day could go come did number sound no most people my over know water than call first who may down side been now find any new work part take get place made live where after back little only round man year came show every good me give our under name very through just form sentence great think say help low line differ turn cause much mean before move right boy old too same tell does set three want air well also play small end put home read hand port large spell add even land here must big high such follow act why ask men change went light kind off need house picture try us again animal point mother world near build self earth father head stand own page should country found answer school grow study still learn plant cover food sun four between state keep eye never last let thought city tree cross farm hard start might story saw far sea draw left late run while press close night real life few north open seem together next white children begin got walk example ease paper group always music those both mark often letter until mile river car feet care second book carry took science eat room friend began idea fish mountain stop once base hear horse cut sure watch color face wood main enough plain girl usual young ready above ever red list though feel talk bird soon body dog family direct pose leave song measure door product black short numeral class wind question happen complete ship area half rock order fire south problem piece told knew pass since top whole king space heard best hour better true during hundred five remember step early hold west ground interest reach fast verb sing listen six table travel less morning ten simple several vowel toward war lay against pattern slow center love person money serve appear road map rain rule govern pull cold notice voice unit power town fine certain fly fall lead cry dark machine note wait plan figure star box noun field rest correct able pound done beauty drive stood contain front teach week final gave green quick develop ocean warm free minute strong special mind behind clear tail produce fact street inch multiply nothing course stay wheel full force blue object decide surface deep moon island foot system busy test record boat common gold possible plane stead dry wonder laugh thousand ago ran check game shape equate hot miss brought heat snow tire bring yes distant fill east paint language among café résumé naïve über façade jalapeño crème brûlée`.split(
  /\s+/,
);
const SYLLABLES = ['ka', 'lo', 'mi', 'ren', 'tor', 'vin', 'sa', 'ber', 'qui', 'dal', 'nor', 'pe', 'zu', 'gra', 'fel', 'ost', 'mar', 'ith', 'ul', 'cre', 'ban', 'sol', 'tri', 'wen'];
const RARE = Array.from({ length: 6000 }, () => Array.from({ length: between(2, 4) }, () => pick(SYLLABLES)).join(''));
export const VOCAB = [...new Set([...COMMON, ...RARE])];
// Zipf weights (s = 1.07) over the vocabulary in this order: common words first.
const CUMULATIVE = (() => {
  const out: number[] = [];
  let sum = 0;
  for (let i = 0; i < VOCAB.length; i++) out.push((sum += 1 / Math.pow(i + 1, 1.07)));
  return out.map((c) => c / sum);
})();
export function word(): string {
  const r = rand();
  let lo = 0;
  let hi = CUMULATIVE.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (CUMULATIVE[mid]! < r) lo = mid + 1;
    else hi = mid;
  }
  return VOCAB[lo]!;
}
function sentence(): string {
  const n = between(6, 22);
  const w = Array.from({ length: n }, word);
  w[0] = w[0]![0]!.toUpperCase() + w[0]!.slice(1);
  return `${w.join(' ')}${pick(['.', '.', '.', '?', '!'])}`;
}
export function article(words: number): string {
  const parts: string[] = [];
  let count = 0;
  while (count < words) {
    const s = sentence();
    count += s.split(' ').length;
    parts.push(s);
  }
  return parts.join(' ');
}
const TLDS = ['com', 'org', 'net', 'co.uk', 'de', 'io', 'news', 'blog'];
export const DOMAINS = Array.from({ length: 300 }, (_, i) => `${pick(['www.', '', 'blog.', 'news.'])}${pick(RARE)}${pick(COMMON.slice(100, 300))}${i}.${pick(TLDS)}`);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

interface Row {
  name: string;
  p50: number;
  p95: number;
  n: number;
}

async function measure(name: string, fns: Array<() => Promise<unknown>>, repeats = REPEATS): Promise<Row> {
  for (const f of fns.slice(0, 10)) await f(); // warm-up
  const times: number[] = [];
  for (let r = 0; r < repeats; r++) {
    for (const f of fns) {
      const t0 = performance.now();
      await f();
      times.push(performance.now() - t0);
    }
  }
  times.sort((a, b) => a - b);
  return { name, p50: percentile(times, 50), p95: percentile(times, 95), n: times.length };
}

export async function run(): Promise<void> {
  // READER_BENCH_DATA_DIR keeps the seeded library between runs (for trying query changes).
  const keep = process.env.READER_BENCH_DATA_DIR;
  const temp = keep ? { dir: keep, remove: () => {} } : makeTempDir('hearth-bench-');
  const config = { ...loadConfig({ DATA_DIR: temp.dir, LOG_LEVEL: 'warn', MODEL_RUNTIME_URL: 'http://127.0.0.1:9', PATH: '' }, []), host: '127.0.0.1', port: 0 };
  const server = await createServer(config, { logger: createMemoryLogger('warn'), captureEngine: new FakeCaptureEngine() });
  try {
    const { deps } = server;
    const store = new ReaderStore(deps.db);
    const collectionsStore = new ReaderCollectionsStore(deps.db);
    const seeded = (await deps.db('users').select('id', 'name').orderBy('created_at')) as Array<{ id: string; name: string }>;
    const adminId = seeded[0]?.id ?? (await deps.auth.createFirstAdmin('Alex', '1234')).user.id;
    const other = seeded[1] ?? (await deps.auth.createUser({ kind: 'system' }, { name: 'Sam', pin: '5678', role: 'member' }));
    const actor: UserActor = { kind: 'user', id: adminId, name: 'Alex', role: 'admin', sessionId: 'bench' };

    const collections: string[] = ((await deps.db('reader_collections').where({ owner_id: actor.id }).select('id')) as Array<{ id: string }>).map((c) => c.id);
    if (collections.length === 0)
      for (let i = 0; i < 20; i++) collections.push((await collectionsStore.insertCollection({ ownerId: actor.id, name: `Collection ${i}`, icon: null, color: null, sortOrder: i }, new Date().toISOString()))!.id);
    const tagNames = Array.from({ length: 60 }, (_, i) => `${pick(COMMON.slice(150, 400))}-${i}`);
    const already = Number(((await deps.db('reader_items').count({ n: '*' }).first()) as { n: number }).n);

    const t0 = performance.now();
    let words = 0;
    const start = Date.now() - ITEMS * 60_000;
    const BATCH = 500;
    for (let i = already; i < ITEMS; i += BATCH) {
      const batch: Array<{ item: NewItem; tags: string[] }> = [];
      for (let j = i; j < Math.min(ITEMS, i + BATCH); j++) {
        // 90 % the measured user's, 8 % another member's, 2 % global
        const r = rand();
        const ownerId = r < 0.9 ? actor.id : r < 0.98 ? other.id : null;
        const domain = pick(DOMAINS);
        const n = between(300, 1500);
        const text = article(n);
        const title = Array.from({ length: between(3, 9) }, word).join(' ');
        const created = new Date(start + j * 60_000).toISOString();
        const offline = rand() < 0.7;
        if (offline) words += n;
        const item = newItemRecord(
          {
            ownerId,
            type: offline ? 'offline' : 'live',
            url: `https://${domain}/${created.slice(0, 10).replace(/-/g, '/')}/${title.split(' ').slice(0, 4).join('-')}.html`,
            title: title[0]!.toUpperCase() + title.slice(1),
            siteName: domain,
            excerpt: text.slice(0, 200),
            contentHtml: offline ? `<p>${text}</p>` : null,
            contentText: offline ? text : null,
            wordCount: n,
            readingMins: Math.round(n / 230),
            status: pick(['unread', 'unread', 'reading', 'archived'] as const),
            archiveState: offline ? 'ready' : 'none',
            collectionId: ownerId === actor.id && rand() < 0.5 ? pick(collections) : null,
            thumbnailState: 'none',
          },
          created,
        );
        batch.push({ item, tags: ownerId === actor.id ? Array.from({ length: between(0, 3) }, () => pick(tagNames)) : [] });
      }
      await store.insertMany(batch, new Date().toISOString());
    }
    const seedS = (performance.now() - t0) / 1000;
    await deps.db.raw("INSERT INTO reader_fts(reader_fts) VALUES('optimize')");
    await deps.db.raw('ANALYZE');
    console.log(`reader-search: seeded ${ITEMS.toLocaleString('en')} items (${(words / 1e6).toFixed(1)} M words of article text in the 70 % saved offline) in ${seedS.toFixed(1)} s`);

    const reader = deps.reader.items;
    const list = (q: Record<string, unknown>) => () => reader.list(actor, { hidden: 'include', limit: 50, offset: 0, ...q });
    const mid = VOCAB.slice(60, 1500);
    const single = Array.from({ length: QUERIES / 4 }, () => list({ q: pick(mid) }));
    const twoPrefix = Array.from({ length: QUERIES / 4 }, () => {
      const w = pick(mid);
      return list({ q: `${pick(mid)} ${w.slice(0, Math.max(3, Math.ceil(w.length / 2)))}` });
    });
    const domainWord = Array.from({ length: QUERIES / 4 }, () => list({ q: pick(DOMAINS).split('.').find((p) => p.length > 4 && p !== 'www') }));
    const common = Array.from({ length: QUERIES / 4 }, () => list({ q: pick(COMMON.slice(0, 60)) }));
    const anyId = ((await deps.db('reader_items').where({ owner_id: actor.id }).first('id')) as { id: string }).id;

    const rows: Row[] = [];
    rows.push(await measure('baseline: select 1', Array.from({ length: 200 }, () => () => deps.db.raw('select 1'))));
    rows.push(await measure('baseline: item by primary key', Array.from({ length: 200 }, () => () => store.findById(anyId))));
    rows.push(await measure('search: one word', single));
    rows.push(await measure('search: two words, prefix', twoPrefix));
    rows.push(await measure('search: domain word', domainWord));
    rows.push(await measure('search: very common word', common));
    rows.push(await measure('search: all ~200 queries', [...single, ...twoPrefix, ...domainWord, ...common]));
    rows.push(await measure('list: default (newest 50)', Array.from({ length: 50 }, () => list({}))));
    rows.push(await measure('list: by tag', tagNames.slice(0, 50).map((t) => list({ tag: t }))));
    rows.push(await measure('list: by collection', collections.map((c) => list({ collectionId: c }))));
    rows.push(await measure('list: status unread, page 3', Array.from({ length: 50 }, () => list({ status: 'unread', offset: 100 }))));

    const base = rows[1]!.p50;
    console.log(`\n${'measure'.padEnd(32)} ${'p50 ms'.padStart(9)} ${'p95 ms'.padStart(9)} ${'p50 / pk'.padStart(9)} ${'runs'.padStart(6)}`);
    for (const r of rows) console.log(`${r.name.padEnd(32)} ${r.p50.toFixed(2).padStart(9)} ${r.p95.toFixed(2).padStart(9)} ${(r.p50 / base).toFixed(1).padStart(8)}x ${String(r.n).padStart(6)}`);
    const all = rows.find((r) => r.name.startsWith('search: all'))!;
    console.log(`\nsearch p95 over all queries: ${all.p95.toFixed(2)} ms (target < 20 ms): ${all.p95 < 20 ? 'met' : 'NOT met'}`);
  } finally {
    await server.close();
    temp.remove();
  }
}
