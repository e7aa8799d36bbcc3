// Unpacks a downloaded program bundle (.tar.gz or .zip, told apart by their first bytes, not the
// file name) into a folder. Both libraries refuse entries that would land outside the folder
// (absolute paths, "..").
import { open } from 'node:fs/promises';
import path from 'node:path';
import type ExtractZip from 'extract-zip';
import type * as Tar from 'tar';
import { lazyRequire } from './lazy.js';

// loaded by the first bundle unpacked, not at start
const loadExtractZip = lazyRequire<typeof ExtractZip>('extract-zip');
const loadTar = lazyRequire<typeof Tar>('tar');

export type BundleFormat = 'tar.gz' | 'zip';

export async function bundleFormat(file: string): Promise<BundleFormat | null> {
  const fh = await open(file, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await fh.read(head, 0, 4, 0);
    if (bytesRead >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'tar.gz';
    if (bytesRead === 4 && head.readUInt32LE(0) === 0x04034b50) return 'zip';
    return null;
  } finally {
    await fh.close();
  }
}

/** Extracts `file` into `destDir` (which must exist). Throws when the file is neither format. */
export async function unpackBundle(file: string, destDir: string): Promise<BundleFormat> {
  const format = await bundleFormat(file);
  if (format === 'tar.gz') await loadTar().x({ file, cwd: destDir, strict: true, preservePaths: false });
  else if (format === 'zip') await loadExtractZip()(file, { dir: path.resolve(destDir) });
  else throw new Error('The downloaded bundle is neither a .tar.gz nor a .zip file.');
  return format;
}
