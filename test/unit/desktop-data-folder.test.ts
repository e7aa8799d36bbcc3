// Moving the data folder from the tray: checks, rename on one disk, copy with progress across disks.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { folderSize, moveDataFolder, planMove, resolveMoveTarget, type MoveCheck } from '../../main/data-folder.js';
import { makeTempDir } from '../harness/temp-dir.js';

const temps: Array<{ remove(): void }> = [];
function dataFolder() {
  const t = makeTempDir('hearth-move-');
  temps.push(t);
  const source = path.join(t.dir, 'Hearth');
  mkdirSync(path.join(source, 'logs'), { recursive: true });
  mkdirSync(path.join(source, 'archives'), { recursive: true });
  writeFileSync(path.join(source, 'hearth.db'), Buffer.alloc(200_000, 1));
  writeFileSync(path.join(source, 'logs', 'hearth.log'), 'line\n');
  writeFileSync(path.join(source, 'archives', 'wikipedia.zim'), Buffer.alloc(1_500_000, 7));
  mkdirSync(path.join(t.dir, 'other-disk'));
  return { root: t.dir, source };
}
const planOf = (check: MoveCheck) => {
  if (!check.ok) throw new Error(check.problem);
  return check.plan;
};
afterEach(() => {
  for (const t of temps.splice(0)) t.remove();
});

// pretend the target is on another disk, so the copy path runs
const otherDisk = { deviceOf: (dir: string) => Promise.resolve(dir.includes('other-disk') ? 2 : 1), freeBytes: () => Promise.resolve(100 * 1024 ** 3) };

describe('data folder move', () => {
  it('puts the data into a Hearth folder when the picked folder has other things in it', async () => {
    const { root } = dataFolder();
    const empty = path.join(root, 'empty');
    mkdirSync(empty);
    expect(await resolveMoveTarget(empty)).toBe(empty);
    expect(await resolveMoveTarget(path.join(root, 'new'))).toBe(path.join(root, 'new'));
    expect(await resolveMoveTarget(root)).toBe(path.join(root, 'Hearth'));
  });

  it('refuses the same folder, a folder inside it, a non-empty folder and a file', async () => {
    const { root, source } = dataFolder();
    expect(await planMove(source, source)).toEqual({ ok: false, problem: 'The data is already in that folder.' });
    expect(await planMove(source, path.join(source, 'archives', 'x'))).toMatchObject({ ok: false, problem: expect.stringMatching(/inside the current data folder/) });
    mkdirSync(path.join(root, 'busy'));
    writeFileSync(path.join(root, 'busy', 'photo.jpg'), 'x');
    expect(await planMove(source, path.join(root, 'busy'))).toMatchObject({ ok: false, problem: expect.stringMatching(/is not empty/) });
    writeFileSync(path.join(root, 'afile'), 'x');
    expect(await planMove(source, path.join(root, 'afile'))).toMatchObject({ ok: false, problem: expect.stringMatching(/is a file/) });
  });

  it('refuses a target disk without room for the copy', async () => {
    const { root, source } = dataFolder();
    const check = await planMove(source, path.join(root, 'other-disk', 'Hearth'), { ...otherDisk, freeBytes: () => Promise.resolve(1_000_000) });
    expect(check).toMatchObject({ ok: false, problem: expect.stringMatching(/^Not enough room: the data needs 0\.3 GB there and the disk has 0\.0 GB free\.$/) });
    expect(existsSync(source)).toBe(true);
  });

  it('renames on the same disk', async () => {
    const { root, source } = dataFolder();
    const target = path.join(root, 'moved', 'Hearth');
    const check = await planMove(source, target);
    expect(check).toMatchObject({ ok: true, plan: { method: 'rename', sizeBytes: 1_700_005 } });
    const progress: number[] = [];
    await moveDataFolder(planOf(check), (f) => progress.push(f));
    expect(existsSync(source)).toBe(false);
    expect(readFileSync(path.join(target, 'logs', 'hearth.log'), 'utf8')).toBe('line\n');
    expect(progress).toEqual([1]);
  });

  it('copies across disks with progress, checks the size, then removes the old folder', async () => {
    const { root, source } = dataFolder();
    const target = path.join(root, 'other-disk', 'Hearth');
    const check = await planMove(source, target, otherDisk);
    expect(check).toMatchObject({ ok: true, plan: { method: 'copy' } });
    const progress: number[] = [];
    await moveDataFolder(planOf(check), (f) => progress.push(f));
    expect(existsSync(source)).toBe(false);
    expect(await folderSize(target)).toBe(1_700_005);
    expect(progress.length).toBeGreaterThan(3);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(1);
  });

  it('leaves the original in place and the target empty when the copy fails', async () => {
    const { root, source } = dataFolder();
    const target = path.join(root, 'other-disk', 'Hearth');
    const check = await planMove(source, target, otherDisk);
    // a file that appears in the target mid-way makes the exclusive write fail
    let planted = false;
    await expect(
      moveDataFolder(planOf(check), () => {
        if (planted) return;
        planted = true;
        mkdirSync(path.join(target, 'logs'), { recursive: true });
        writeFileSync(path.join(target, 'logs', 'hearth.log'), 'someone else');
      }),
    ).rejects.toThrow();
    expect(existsSync(target)).toBe(false);
    expect(await folderSize(source)).toBe(1_700_005);
  });
});
