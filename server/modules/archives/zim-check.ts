// ZIM file checks. The fast structural check reads only the 80-byte header and the file size
// (catches truncated, empty and non-ZIM files in microseconds, so one bad file cannot stop the
// archive server from starting). The full check recomputes the MD5 the header points at
// (catches bit flips; seconds per GB).
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';

const ZIM_MAGIC = 72173914;
const HEADER_BYTES = 80;

export interface ZimHeader {
  majorVersion: number;
  minorVersion: number;
  uuid: string;
  checksumPos: number;
}

export type CheckResult = { ok: true; header: ZimHeader } | { ok: false; reason: string };

export async function checkStructure(file: string): Promise<CheckResult> {
  let fh;
  try {
    fh = await open(file, 'r');
  } catch (err) {
    return { ok: false, reason: `The file cannot be opened: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}.` };
  }
  try {
    const { size } = await fh.stat();
    if (size < HEADER_BYTES + 16) return { ok: false, reason: 'The file is too small to be a ZIM archive.' };
    const buf = Buffer.alloc(HEADER_BYTES);
    await fh.read(buf, 0, HEADER_BYTES, 0);
    if (buf.readUInt32LE(0) !== ZIM_MAGIC) return { ok: false, reason: 'The file is not a ZIM archive.' };
    const header: ZimHeader = {
      majorVersion: buf.readUInt16LE(4),
      minorVersion: buf.readUInt16LE(6),
      uuid: buf.subarray(8, 24).toString('hex'),
      checksumPos: Number(buf.readBigUInt64LE(72)),
    };
    const pointers = [32, 40, 48, 56].map((o) => Number(buf.readBigUInt64LE(o)));
    if (header.checksumPos + 16 !== size) return { ok: false, reason: `The file is truncated or padded: ${size} bytes where the header says ${header.checksumPos + 16}.` };
    if (pointers.some((p) => p >= header.checksumPos)) return { ok: false, reason: 'The file’s tables point outside the archive.' };
    return { ok: true, header };
  } finally {
    await fh.close();
  }
}

/** Structure plus the MD5 checksum over the whole archive. */
export async function checkFull(file: string): Promise<CheckResult> {
  const structure = await checkStructure(file);
  if (!structure.ok) return structure;
  const { checksumPos } = structure.header;
  const md5 = createHash('md5');
  for await (const chunk of createReadStream(file, { start: 0, end: checksumPos - 1, highWaterMark: 1024 * 1024 })) md5.update(chunk as Buffer);
  const fh = await open(file, 'r');
  try {
    const stored = Buffer.alloc(16);
    await fh.read(stored, 0, 16, checksumPos);
    if (!md5.digest().equals(stored)) return { ok: false, reason: 'The archive is damaged: its checksum does not match.' };
  } finally {
    await fh.close();
  }
  return structure;
}
