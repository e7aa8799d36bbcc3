// The fixture ZIMs of one vitest run are built once and shared (test/harness/zims.ts): the first
// file that asks builds every kind, the others get the same files, and a build that failed in
// another file is reported, not waited on.
import { mkdirSync, statSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../harness/temp-dir.js';
import { buildTestZims, SHARED_ZIMS_ENV } from '../harness/zims.js';

describe('the shared test ZIMs', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let runs: string | undefined;

  beforeEach(() => {
    temp = makeTempDir('hearth-zims-test-');
    runs = process.env[SHARED_ZIMS_ENV];
    process.env[SHARED_ZIMS_ENV] = temp.dir;
  });
  afterEach(() => {
    if (runs === undefined) delete process.env[SHARED_ZIMS_ENV];
    else process.env[SHARED_ZIMS_ENV] = runs;
    temp.remove();
  });

  it('are built once, with every kind, and each later caller gets the same files', () => {
    const first = buildTestZims();
    expect(first.dir).toBe(path.join(temp.dir, 'zims'));
    expect(first.noIndex).toBeUndefined();
    const built = statSync(first.encyclopedia).mtimeMs;

    const second = buildTestZims({ withBroken: true, withNoIndex: true });
    expect(second.dir).toBe(first.dir);
    expect(statSync(second.encyclopedia).mtimeMs).toBe(built);
    expect(existsSync(second.noIndex!)).toBe(true);
    expect(existsSync(path.join(second.dir, 'broken/bitflip.zim'))).toBe(true);
    expect(second.fixtures).toEqual(first.fixtures);

    // a file's remove() leaves the shared build for the others
    second.remove();
    expect(existsSync(first.books)).toBe(true);
  });

  it('says so when the build failed in another file, instead of waiting for it', () => {
    mkdirSync(path.join(temp.dir, 'zims'));
    writeFileSync(path.join(temp.dir, 'failed'), 'Error: zimwriterfs exited with 1');
    expect(() => buildTestZims()).toThrow('building the test ZIMs failed in another test file: Error: zimwriterfs exited with 1');
  });
});
