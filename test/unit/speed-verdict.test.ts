// What the speed test card says a result means (renderer/src/features/tools/speed-measure.ts): the
// download decides the video sentence; slow or uneven replies add the lag sentence.
import { describe, expect, it } from 'vitest';
import { deviceName, verdict } from '../../renderer/src/features/tools/speed-measure.js';

const r = (downloadMbps: number, pingMs = 2, jitterMs = 1) => ({ downloadMbps, uploadMbps: 50, pingMs, jitterMs });

describe('speed test verdict', () => {
  it('says what each download speed is good for', () => {
    expect(verdict(r(400))).toBe('Fast: good enough for 4K video and quick copies of big files on this device.');
    expect(verdict(r(30))).toBe('Good enough for 4K video on this device.');
    expect(verdict(r(10))).toBe('Good for HD video on this device; 4K video may stop to load.');
    expect(verdict(r(4))).toBe('Enough for music and standard-quality video on this device; HD video may stop to load.');
    expect(verdict(r(1))).toMatch(/^Slow: .*use a cable\.$/);
  });

  it('adds that calls and cameras may lag when replies are slow or uneven', () => {
    expect(verdict(r(30, 80))).toMatch(/4K video on this device\. Replies are slow or uneven/);
    expect(verdict(r(30, 5, 40))).toMatch(/may lag\.$/);
  });

  it('names the device from its browser', () => {
    expect(deviceName('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)')).toBe('iPhone');
    expect(deviceName('Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile Safari/537.36')).toBe('Android phone');
    expect(deviceName('Mozilla/5.0 (Windows NT 10.0; Win64; x64)')).toBe('Windows computer');
  });
});
