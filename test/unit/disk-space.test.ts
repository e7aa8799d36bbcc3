// The one reserve check every large write makes (server/platform/disk.ts): what a write needs must
// leave DISK_RESERVE_BYTES free; a folder not made yet is read on its nearest existing parent; a
// disk whose free space cannot be read is not refused. Free space is a figure handed in.
import { describe, expect, it } from 'vitest';
import { createDiskSpace, DISK_RESERVE_BYTES, formatSize, NotEnoughDiskError } from '../../server/platform/disk.js';

const MB = 1024 ** 2;

describe('createDiskSpace', () => {
  it('lets a write through that leaves the reserve free, and refuses one byte more with 507 and a sentence', async () => {
    const disk = createDiskSpace(async () => DISK_RESERVE_BYTES + 100 * MB);
    await expect(disk.ensureRoom('/data', 100 * MB)).resolves.toBeUndefined();
    const err = await disk.ensureRoom('/data', 100 * MB + 1, { what: 'This video', where: 'the disk of your home videos' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotEnoughDiskError);
    expect(err).toMatchObject({ status: 507, code: 'not_enough_disk', message: 'This video needs 100 MB but only 100 MB is free on the disk of your home videos. Free some space and try again.', details: { neededBytes: 100 * MB + 1, freeBytes: DISK_RESERVE_BYTES + 100 * MB } });
    expect(await disk.available('/data')).toBe(100 * MB);
  });

  it('reads a folder that does not exist yet on its nearest existing parent, and does not refuse a disk it cannot read', async () => {
    const asked: string[] = [];
    const disk = createDiskSpace(async (dir) => {
      asked.push(dir);
      if (dir !== '/srv') throw Object.assign(new Error('no such folder'), { code: 'ENOENT' });
      return DISK_RESERVE_BYTES;
    });
    await expect(disk.ensureRoom('/srv/new/folder', 1)).rejects.toBeInstanceOf(NotEnoughDiskError);
    expect(asked).toEqual(['/srv/new/folder', '/srv/new', '/srv']);
    const unreadable = createDiskSpace(async () => {
      throw Object.assign(new Error('I/O error'), { code: 'EIO' });
    });
    await expect(unreadable.ensureRoom('/data', 10 ** 15)).resolves.toBeUndefined();
    expect(await unreadable.available('/data')).toBeNull();
  });

  it('says sizes as a person reads them', () => {
    expect(formatSize(8 * 1024 ** 3)).toBe('8.0 GB');
    expect(formatSize(600 * MB)).toBe('600 MB');
    expect(formatSize(5.4 * MB)).toBe('5.4 MB');
    expect(formatSize(12 * 1024)).toBe('12 KB');
  });
});
