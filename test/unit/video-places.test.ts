// Where a PeerTube video (or its saved copy) was left, kept on the device for the video player's
// resume (renderer/src/features/videos/video-places.ts): read back, from the top once watched to
// within 30 s of the end, the newest 100 kept.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { devicePlace, keepDevicePlace } from '../../renderer/src/features/videos/video-places.js';

describe('video places on this device', () => {
  beforeEach(() => {
    const store = new Map<string, string>();
    vi.stubGlobal('localStorage', { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('resumes where the video was left; a watched one starts from the top', () => {
    expect(devicePlace('peertube:aaa')).toBe(0);
    keepDevicePlace('peertube:aaa', 125.4, 600);
    expect(devicePlace('peertube:aaa')).toBe(125);
    expect(devicePlace('peertube:bbb')).toBe(0);
    keepDevicePlace('peertube:aaa', 580, 600);
    expect(devicePlace('peertube:aaa')).toBe(0);
  });

  it('keeps the newest 100 places', () => {
    vi.spyOn(Date, 'now').mockReturnValue(1_700_000_000_000); // all in one millisecond: the order kept decides
    for (let i = 0; i < 105; i++) keepDevicePlace(`peertube:${i}`, 10 + i, 600);
    expect(devicePlace('peertube:104')).toBe(114);
    expect(devicePlace('peertube:0')).toBe(0);
    expect(Object.keys(JSON.parse(localStorage.getItem('hearth:video-places')!) as object)).toHaveLength(100);
  });

  it('a broken store starts from the top', () => {
    localStorage.setItem('hearth:video-places', 'not json');
    expect(devicePlace('peertube:aaa')).toBe(0);
  });
});
