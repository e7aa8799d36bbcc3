// .safetensors files for tests: a real one (the 8-byte little-endian header length, the JSON header,
// the tensors' bytes) of any size, and the damaged kinds an import must refuse.
import { makeContent } from '../fakes/file-server.js';

/** A small but real .safetensors file; `dataBytes` of tensor data (one F16 tensor), seeded so two files differ. */
export function safetensorsFile(metadata: Record<string, string> = {}, dataBytes = 4, seed = 1): Buffer {
  const bytes = dataBytes - (dataBytes % 2);
  const header = Buffer.from(JSON.stringify({ __metadata__: metadata, 'lora_unet_down.weight': { dtype: 'F16', shape: [bytes / 2], data_offsets: [0, bytes] } }));
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(header.length));
  return Buffer.concat([len, header, makeContent(bytes, seed)]);
}

/** A file whose first 8 bytes give `length` and whose header is `header` (any bytes), then `tail`. */
export function rawSafetensors(length: bigint, header: Buffer | string, tail: Buffer = Buffer.alloc(16)): Buffer {
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(length);
  return Buffer.concat([len, Buffer.from(header), tail]);
}

/** The damaged files the LoRA imports refuse, by what is wrong with them. */
export function damagedSafetensors(): Record<string, Buffer> {
  const broken = '{"w": {"dtype": "F16", "shape": [2], "data_offsets": [0, 4]';
  const notJson = '[1, 2, 3, 4, 5, 6, 7, 8]';
  const past = JSON.stringify({ w: { dtype: 'F16', shape: [2], data_offsets: [0, 1_000_000] } });
  return {
    'header length 2^63': rawSafetensors(2n ** 63n, '{}'),
    'broken JSON header': rawSafetensors(BigInt(broken.length), broken),
    'non-JSON header': rawSafetensors(16n, 'ZZZZZZZZZZZZZZZZ'),
    'JSON array header': rawSafetensors(BigInt(notJson.length), notJson),
    'offsets past the file': rawSafetensors(BigInt(past.length), past, Buffer.alloc(4)),
  };
}

/** What a pickled PyTorch checkpoint starts with: the pickle protocol 2 opcode, then a GLOBAL. */
export const PICKLE_BYTES = Buffer.concat([Buffer.from([0x80, 0x02]), Buffer.from('cposix\nsystem\nq\x00X\x04\x00\x00\x00echoq\x01\x85q\x02Rq\x03.', 'latin1')]);
