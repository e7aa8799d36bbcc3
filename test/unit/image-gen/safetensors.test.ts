import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  baseFamilyOf,
  headerLengthOf,
  InvalidSafetensorsError,
  loraInfoFromMetadata,
  parseSafetensorsHeader,
  readSafetensorsFile,
  SAFETENSORS_HEADER_MAX_BYTES,
} from '../../../server/modules/image-gen/safetensors.js';
import { makeTempDir } from '../../harness/temp-dir.js';

/** A .safetensors file: the 8-byte little-endian length, the JSON header (space-padded to 8), the data. */
function safetensors(header: unknown, data = Buffer.alloc(16), rawHeader?: string): Buffer {
  let json = rawHeader ?? JSON.stringify(header);
  while (Buffer.byteLength(json) % 8 !== 0) json += ' ';
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(Buffer.byteLength(json)));
  return Buffer.concat([len, Buffer.from(json), data]);
}

const TENSOR = { dtype: 'F16', shape: [2, 4], data_offsets: [0, 16] };

function problemOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    if (e instanceof InvalidSafetensorsError) {
      expect(e).toMatchObject({ status: 422, code: 'invalid_safetensors' });
      return e.problem;
    }
    throw e;
  }
  return undefined;
}

describe('parseSafetensorsHeader', () => {
  it('reads the tensor entries and the metadata map', () => {
    const file = safetensors({ __metadata__: { ss_output_name: 'fox' }, 'lora_unet.weight': TENSOR });
    expect(parseSafetensorsHeader(file, file.byteLength)).toEqual({ headerBytes: file.byteLength - 8 - 16, tensorCount: 1, metadata: { ss_output_name: 'fox' } });
    expect(parseSafetensorsHeader(safetensors({ w: TENSOR })).metadata).toEqual({});
  });

  it('refuses garbage with a typed error', () => {
    expect(problemOf(() => parseSafetensorsHeader(Buffer.from([1, 2, 3])))).toBe('too_short');
    expect(problemOf(() => parseSafetensorsHeader(Buffer.from('PK\x03\x04 this is a zip file, not a model')))).toBe('header_too_large');
    expect(problemOf(() => parseSafetensorsHeader(safetensors(null, Buffer.alloc(0), '[1, 2, 3]')))).toBe('not_json');
    expect(problemOf(() => parseSafetensorsHeader(safetensors(null, Buffer.alloc(0), '{"a": ')))).toBe('not_json');
    expect(problemOf(() => parseSafetensorsHeader(safetensors({ w: { dtype: 'F17', shape: [1], data_offsets: [0, 2] } })))).toBe('bad_entry');
    expect(problemOf(() => parseSafetensorsHeader(safetensors({ __metadata__: { steps: 100 } })))).toBe('bad_entry');
    const full = safetensors({ w: TENSOR });
    expect(problemOf(() => parseSafetensorsHeader(full.subarray(0, 20)))).toBe('header_truncated');
    // a file too short for its own header, and tensor data past the end of the file
    expect(problemOf(() => parseSafetensorsHeader(full, 20))).toBe('header_truncated');
    expect(problemOf(() => parseSafetensorsHeader(full, full.byteLength - 8))).toBe('bad_entry');
    const short = safetensors({ w: { ...TENSOR, data_offsets: [0, 64] } });
    expect(problemOf(() => parseSafetensorsHeader(short, short.byteLength))).toBe('bad_entry');
  });

  it('bounds the header before reading it', () => {
    const len = Buffer.alloc(8);
    len.writeBigUInt64LE(BigInt(SAFETENSORS_HEADER_MAX_BYTES + 1));
    expect(problemOf(() => headerLengthOf(len))).toBe('header_too_large');
    len.writeBigUInt64LE(2n ** 63n);
    expect(problemOf(() => headerLengthOf(len))).toBe('header_too_large');
    len.writeBigUInt64LE(100n);
    expect(headerLengthOf(len)).toBe(100);
    expect(problemOf(() => headerLengthOf(len, 50))).toBe('header_truncated');
  });

  it('reads only the header of a file on disk', async () => {
    const tmp = makeTempDir('hearth-safetensors-');
    const path = join(tmp.dir, 'fox.safetensors');
    await writeFile(path, safetensors({ __metadata__: { 'modelspec.trigger_phrase': 'foxy' }, w: TENSOR }));
    expect(await readSafetensorsFile(path)).toMatchObject({ tensorCount: 1, metadata: { 'modelspec.trigger_phrase': 'foxy' } });
    await writeFile(path, 'not a model at all, just text');
    await expect(readSafetensorsFile(path)).rejects.toBeInstanceOf(InvalidSafetensorsError);
    tmp.remove();
  });
});

describe('loraInfoFromMetadata', () => {
  it('takes kohya`s trigger words from the dataset folders and the most frequent caption tags, and the base model', () => {
    const meta = {
      ss_base_model_version: 'sdxl_base_v1-0',
      ss_output_name: 'wtrclr',
      ss_dataset_dirs: JSON.stringify({ '10_wtrclr style': { n_repeats: 10, img_count: 40 } }),
      ss_tag_frequency: JSON.stringify({ '10_wtrclr style': { 'wtrclr style': 40, flower: 12, ' landscape': 9, tree: 3 }, extra: { flower: 1 } }),
    };
    expect(loraInfoFromMetadata(meta)).toEqual({ triggerWords: ['wtrclr style', 'flower', 'landscape'], baseModel: 'sdxl_base_v1-0', baseFamily: 'sdxl', title: 'wtrclr' });
  });

  it('takes the modelspec trigger phrase and architecture', () => {
    expect(loraInfoFromMetadata({ 'modelspec.trigger_phrase': 'lego bricks, toy', 'modelspec.architecture': 'stable-diffusion-v1/lora', 'modelspec.title': 'Bricks' })).toEqual({
      triggerWords: ['lego bricks', 'toy'],
      baseModel: 'stable-diffusion-v1/lora',
      baseFamily: 'sd15',
      title: 'Bricks',
    });
  });

  it('copes with missing or broken metadata', () => {
    expect(loraInfoFromMetadata({})).toEqual({ triggerWords: [], baseModel: null, baseFamily: null, title: null });
    expect(loraInfoFromMetadata({ ss_tag_frequency: '{not json', ss_dataset_dirs: '[]' }).triggerWords).toEqual([]);
  });

  it.each([
    ['sd_v1', 'sd15'],
    ['sd_2.1', 'sd2'],
    ['stable-diffusion-xl-v1-base/lora', 'sdxl'],
    ['flux-1-dev/lora', 'flux'],
    ['stable-diffusion-3-medium/lora', 'sd3'],
    ['something else', null],
  ])('%s is %s', (name, family) => {
    expect(baseFamilyOf(name)).toBe(family);
  });
});
