// A small picture fetched from an outside source (a team's badge, a show's poster) and kept in a
// cache row: its type read from the bytes (never from the sender's header), anything else refused.

/** What a cached picture is: its type and its bytes in base64 (cache rows are JSON). */
export interface CachedImage {
  type: string;
  data: string;
}

const IMAGE_SIGNATURES: Array<[string, (b: Buffer) => boolean]> = [
  ['image/png', (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))],
  ['image/jpeg', (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ['image/gif', (b) => b.subarray(0, 6).toString('latin1') === 'GIF87a' || b.subarray(0, 6).toString('latin1') === 'GIF89a'],
  ['image/webp', (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP'],
];

/** A picture's bytes → what is cached; throws (the fetch counts as failed) for anything else or over `maxBytes`. */
export function parseCachedImage(body: Buffer, maxBytes: number, what: string): CachedImage {
  if (body.length > maxBytes) throw new Error(`${what} larger than ${maxBytes / 1024} KB`);
  const type = IMAGE_SIGNATURES.find(([, is]) => is(body))?.[0];
  if (!type) throw new Error('not a PNG, JPEG, GIF or WebP image');
  return { type, data: body.toString('base64') };
}
