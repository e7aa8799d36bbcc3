// The web app's boundary rules in eslint.config.js, probed through ESLint's own API with the
// project's config: each fires on what it forbids and stays quiet on what is allowed.
//   web/feature-index-only: a feature imports another feature only through its index.ts.
//   web/cache-writes-in-queries: the query cache is changed only in a feature's queries.ts.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

let eslint: ESLint;
beforeAll(async () => {
  eslint = new ESLint({ cwd: root });
  // the first file loads the config and the TypeScript parser
  await eslint.lintText('export {};\n', { filePath: path.join(root, 'renderer/src/features/home/probe.ts') });
}, 60_000);

async function rulesFired(code: string, file: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.map((m) => m.ruleId ?? `fatal: ${m.message}`);
}

describe('web/feature-index-only', () => {
  const from = 'renderer/src/features/home/probe.ts';

  it("fires on another feature's file, however it is reached", async () => {
    expect(await rulesFired("export { useModels } from '../models/queries';\n", from)).toContain('web/feature-index-only');
    expect(await rulesFired("import { useModels } from '../models/queries';\nexport const x = useModels;\n", from)).toContain('web/feature-index-only');
    expect(await rulesFired("import type { EssentialRoleName } from '../models/types';\nexport type X = EssentialRoleName;\n", from)).toContain('web/feature-index-only');
    expect(await rulesFired("export * from '../../features/models/queries.js';\n", from)).toContain('web/feature-index-only');
    expect(await rulesFired("export const load = () => import('../models/ModelsPage');\n", from)).toContain('web/feature-index-only');
  });

  it("stays quiet on another feature's index, its own files, ui/, api/ and app/", async () => {
    for (const code of [
      "export { useModels } from '../models';\n",
      "export { useModels } from '../models/index';\n",
      "export { CHECKLIST_KEY } from './queries';\n",
      "export { Icon } from '../../ui/icons';\n",
      "export { api } from '../../api/client';\n",
      "export { useUser } from '../../app/session';\n",
      "import '../image/image.css';\n",
    ]) {
      expect(await rulesFired(code, from), code).not.toContain('web/feature-index-only');
    }
  });

  it('leaves the app shell, which lists the features, alone', async () => {
    expect(await rulesFired("export { useTools } from '../features/apps/tools';\n", 'renderer/src/app/probe.ts')).not.toContain('web/feature-index-only');
  });
});

describe('web/cache-writes-in-queries', () => {
  const write = (call: string) => `import type { QueryClient } from '@tanstack/react-query';\nexport function f(client: QueryClient): void {\n  ${call}\n}\n`;
  const calls = [
    "void client.invalidateQueries({ queryKey: ['x'] });",
    "client.setQueryData(['x'], 1);",
    "client.removeQueries({ queryKey: ['x'] });",
    "void client.resetQueries({ queryKey: ['x'] });",
  ];

  it('fires in a page, a hook or a component', async () => {
    for (const call of calls) {
      expect(await rulesFired(write(call), 'renderer/src/features/models/ModelsPage.tsx'), call).toContain('web/cache-writes-in-queries');
      expect(await rulesFired(write(call), 'renderer/src/features/chat/useChatStream.ts'), call).toContain('web/cache-writes-in-queries');
    }
  });

  it("stays quiet in a feature's queries.ts (or <part>-queries.ts), and on reading the cache", async () => {
    for (const call of calls) {
      expect(await rulesFired(write(call), 'renderer/src/features/models/queries.ts'), call).not.toContain('web/cache-writes-in-queries');
      expect(await rulesFired(write(call), 'renderer/src/features/media/home-videos-queries.ts'), call).not.toContain('web/cache-writes-in-queries');
    }
    expect(await rulesFired(write("void client.getQueryData(['x']);"), 'renderer/src/features/models/ModelsPage.tsx')).not.toContain('web/cache-writes-in-queries');
  });
});
