// Free space on the disk holding a folder (for refusing downloads that cannot fit).
import { statfs } from 'node:fs/promises';

export type DiskFree = (dir: string) => Promise<number>;

export const diskFree: DiskFree = async (dir) => {
  const s = await statfs(dir);
  return s.bavail * s.bsize;
};
