// The household the web app benches open (bench/webapp.ts, bench/first-screen.ts): a real Hearth
// serving the built web app from a temp DATA_DIR, an admin (Alex) who finished the welcome, a
// member (Sam) with a few Reader items, one of them an article with its text kept offline, and the
// pages each bench opens. The capture engine is the tests' fake: nothing leaves the machine.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface BenchPage {
  page: string;
  path: string;
  as: 'nobody' | 'admin' | 'member';
}

export interface BenchHousehold {
  url: string;
  pages: BenchPage[];
  cookies: Record<BenchPage['as'], string | null>;
  close(): Promise<void>;
}

export async function startBenchHousehold(): Promise<BenchHousehold> {
  const { createServer } = await import('../server/app.js');
  const { loadConfig } = await import('../server/config.js');
  const { SYSTEM_ACTOR } = await import('../server/actor.js');
  const { createMemoryLogger } = await import('../server/platform/logger.js');
  const { newItemRecord } = await import('../server/modules/reader/item-rows.js');
  const { ReaderStore } = await import('../server/modules/reader/store.js');
  const { FakeCaptureEngine } = await import('../test/fakes/capture-engine.js');
  const { makeTempDir } = await import('../test/harness/temp-dir.js');

  const temp = makeTempDir('hearth-bench-');
  const config = {
    ...loadConfig({ DATA_DIR: temp.dir, LOG_LEVEL: 'warn', MODEL_RUNTIME_URL: 'http://127.0.0.1:9', PATH: '' }, []),
    host: '127.0.0.1',
    port: 0,
  };
  const server = await createServer(config, { logger: createMemoryLogger('warn'), captureEngine: new FakeCaptureEngine() });
  try {
    const { url } = await server.listen(0, '127.0.0.1');
    await server.deps.boot.start();
    const admin = await server.deps.auth.createFirstAdmin('Alex', '1234');
    await server.deps.setup.completeWelcome(SYSTEM_ACTOR);
    const sam = await server.deps.auth.createUser(SYSTEM_ACTOR, { name: 'Sam', pin: '5678', role: 'member' });
    const member = await server.deps.auth.verifyPin(sam.id, '5678', '127.0.0.1');

    const now = new Date();
    const paragraphs = Array.from(
      { length: 12 },
      (_, i) =>
        `<p>Paragraph ${i + 1}. Bread wants time more than it wants work: mix the flour, water, salt and a little yeast the evening before, fold it twice before bed, and let the cold of the kitchen do the rest overnight. In the morning shape it gently, let it rise once more and bake it hot in a covered pot.</p>`,
    ).join('');
    const text = paragraphs.replace(/<[^>]+>/g, ' ');
    const article = newItemRecord(
      {
        ownerId: member.user.id,
        type: 'offline',
        url: 'https://bread.example/overnight-loaf',
        title: 'An overnight loaf with almost no work',
        siteName: 'bread.example',
        byline: 'A. Baker',
        excerpt: text.slice(0, 200),
        contentHtml: paragraphs,
        contentText: text,
        wordCount: text.split(/\s+/).length,
        readingMins: 3,
        archiveState: 'ready',
        thumbnailState: 'none',
      },
      now.toISOString(),
    );
    const links = ['Planting garlic in autumn', 'How to fix a dripping tap', 'School holidays for next year', 'A short guide to composting'].map((title, i) => ({
      item: newItemRecord(
        { ownerId: member.user.id, type: 'live', url: `https://home.example/${i}/${title.toLowerCase().replace(/\W+/g, '-')}`, title, siteName: 'home.example', excerpt: `${title}, saved for later.`, thumbnailState: 'none' },
        new Date(now.getTime() - (i + 1) * 3_600_000).toISOString(),
      ),
      tags: i % 2 ? ['house'] : ['garden'],
    }));
    await new ReaderStore(server.deps.db).insertMany([{ item: article, tags: ['kitchen'] }, ...links], now.toISOString());

    return {
      url,
      pages: [
        { page: 'Profile picker', path: '/profiles', as: 'nobody' },
        { page: 'Home', path: '/', as: 'member' },
        { page: 'Reader list', path: '/reader', as: 'member' },
        { page: 'Article', path: `/reader/${article.id}`, as: 'member' },
        { page: 'Members (admin)', path: '/members', as: 'admin' },
      ],
      cookies: { nobody: null, admin: `session=${admin.token}`, member: `session=${member.token}` },
      async close() {
        await server.close();
        temp.remove();
      },
    };
  } catch (err) {
    await server.close();
    temp.remove();
    throw err;
  }
}
