import { describe, expect, it } from 'vitest';
import { isIco, isIconHeaderType, sniffIconType } from '../../server/modules/reader/favicon.js';
import { PNG_1PX } from '../fakes/capture-engine.js';
import { icoOf, SVG_ICON } from '../fixtures/icons.js';

describe('sniffIconType (what the icon bytes are)', () => {
  it('knows the image types Hearth keeps by their first bytes', () => {
    expect(sniffIconType(PNG_1PX)).toBe('image/png');
    expect(sniffIconType(icoOf(PNG_1PX))).toBe('image/x-icon');
    expect(sniffIconType(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))).toBe('image/jpeg');
    expect(sniffIconType(Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'))).toBe('image/gif');
    expect(sniffIconType(Buffer.from('RIFF\x1a\x00\x00\x00WEBPVP8L', 'latin1'))).toBe('image/webp');
    expect(sniffIconType(SVG_ICON)).toBe('image/svg+xml');
  });

  it('refuses HTML, text, empty bodies and image types it does not keep', () => {
    expect(sniffIconType(Buffer.from('<!doctype html><html><head><title>Not found</title>'))).toBeNull();
    expect(sniffIconType(Buffer.from('just some text'))).toBeNull();
    expect(sniffIconType(Buffer.alloc(0))).toBeNull();
    expect(sniffIconType(Buffer.from('BM\x36\x00\x00\x00', 'latin1'))).toBeNull(); // BMP
    expect(sniffIconType(Buffer.from('%PDF-1.7'))).toBeNull();
  });
});

describe('isIco', () => {
  it('accepts a well-formed icon directory', () => {
    expect(isIco(icoOf(PNG_1PX))).toBe(true);
  });

  it('refuses a cursor, no entries, or an entry whose image lies outside the file', () => {
    const cursor = icoOf(PNG_1PX);
    cursor.writeUInt16LE(2, 2);
    expect(isIco(cursor)).toBe(false);
    const empty = icoOf(PNG_1PX);
    empty.writeUInt16LE(0, 4);
    expect(isIco(empty)).toBe(false);
    const truncated = icoOf(PNG_1PX).subarray(0, 30);
    expect(isIco(truncated)).toBe(false);
    const inDirectory = icoOf(PNG_1PX);
    inDirectory.writeUInt32LE(2, 18); // image "starts" inside the header
    expect(isIco(inDirectory)).toBe(false);
    // four zero bytes followed by anything is not an icon
    expect(isIco(Buffer.concat([Buffer.from([0, 0, 1, 0]), Buffer.alloc(40)]))).toBe(false);
  });
});

describe('isIconHeaderType (the Content-Type an icon may come with)', () => {
  it('lets image types and generic or missing types through (the bytes decide)', () => {
    for (const t of ['image/png', 'image/x-icon', 'image/vnd.microsoft.icon', 'image/jpeg', 'image/gif', 'image/webp', 'image/svg+xml', 'IMAGE/PNG; charset=binary', 'application/octet-stream', undefined]) {
      expect(isIconHeaderType(t), String(t)).toBe(true);
    }
  });

  it('refuses HTML, text and other types', () => {
    for (const t of ['text/html; charset=utf-8', 'text/plain', 'application/json', 'application/xhtml+xml', 'image/bmp', 'video/mp4']) {
      expect(isIconHeaderType(t), t).toBe(false);
    }
  });
});
