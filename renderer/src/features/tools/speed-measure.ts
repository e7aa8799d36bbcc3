// The speed test between this browser and Hearth, after LibreSpeed's client (reference
// household-tools.md §2): 10 pings to /api/speedtest/empty (ping = the lowest round trip, jitter =
// the mean change between successive ones), then a few parallel downloads of /garbage and uploads to
// /empty for a few seconds each, counted after a short ramp-up; Mbit/s = bytes × 8 × 1.06 (the
// protocol overhead LibreSpeed adds) / seconds / 10⁶. Every request carries a random `r` so no cache
// answers it. What it means is said in plain words by `verdict`.

export interface SpeedResult {
  downloadMbps: number;
  uploadMbps: number;
  pingMs: number;
  jitterMs: number;
}

export type SpeedPhase = 'ping' | 'download' | 'upload';

export interface MeasureOptions {
  signal: AbortSignal;
  /** Seconds each direction runs (default 5). */
  seconds?: number;
  onPhase?: (phase: SpeedPhase, mbps: number | null) => void;
}

const OVERHEAD = 1.06;
const STREAMS = 3;
const RAMP_MS = 1000;
const UPLOAD_BLOB_BYTES = 4 * 1024 * 1024;

const fresh = (path: string) => `${path}${path.includes('?') ? '&' : '?'}r=${Math.random().toString(36).slice(2)}`;
const mbps = (bytes: number, ms: number) => (ms > 0 ? (bytes * 8 * OVERHEAD) / (ms / 1000) / 1e6 : 0);

async function ping(signal: AbortSignal): Promise<{ pingMs: number; jitterMs: number }> {
  const times: number[] = [];
  for (let i = 0; i < 10; i++) {
    const started = performance.now();
    const res = await fetch(fresh('/api/speedtest/empty'), { credentials: 'same-origin', cache: 'no-store', signal });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`ping answered ${res.status}`);
    times.push(performance.now() - started);
  }
  // the first request may open the connection: leave it out
  const kept = times.slice(1);
  const diffs = kept.slice(1).map((t, i) => Math.abs(t - kept[i]!));
  return { pingMs: Math.min(...kept), jitterMs: diffs.reduce((a, b) => a + b, 0) / Math.max(1, diffs.length) };
}

/** Runs `stream` in STREAMS parallel loops for `ms`, counting bytes after the ramp-up; Mbit/s. */
async function timed(ms: number, signal: AbortSignal, stream: (count: (n: number) => void, stop: AbortSignal) => Promise<void>, onRate: (mbps: number) => void): Promise<number> {
  const stop = new AbortController();
  const abort = () => stop.abort();
  signal.addEventListener('abort', abort, { once: true });
  const started = performance.now();
  let counted = 0;
  let countFrom: number | null = null;
  const count = (n: number) => {
    const now = performance.now();
    if (now - started < RAMP_MS) return;
    countFrom ??= now;
    counted += n;
  };
  const tick = setInterval(() => countFrom !== null && onRate(mbps(counted, performance.now() - countFrom)), 250);
  const timer = setTimeout(() => stop.abort(), ms);
  const loops = Array.from({ length: STREAMS }, async () => {
    while (!stop.signal.aborted) await stream(count, stop.signal).catch((err: unknown) => (stop.signal.aborted ? undefined : Promise.reject(err)));
  });
  try {
    await Promise.all(loops);
  } finally {
    clearTimeout(timer);
    clearInterval(tick);
    signal.removeEventListener('abort', abort);
  }
  if (signal.aborted) throw new DOMException('The speed test was stopped.', 'AbortError');
  return countFrom === null ? 0 : mbps(counted, performance.now() - countFrom);
}

async function download(count: (n: number) => void, stop: AbortSignal): Promise<void> {
  const res = await fetch(fresh('/api/speedtest/garbage?ckSize=25'), { credentials: 'same-origin', cache: 'no-store', signal: stop });
  if (!res.ok || !res.body) throw new Error(`download answered ${res.status}`);
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    count(value.byteLength);
  }
}

let blob: Blob | null = null;
/** 4 MB that do not compress (crypto randomness is given 64 KB at a time). */
function uploadBlob(): Blob {
  if (blob) return blob;
  const bytes = new Uint8Array(UPLOAD_BLOB_BYTES);
  for (let at = 0; at < bytes.length; at += 65536) crypto.getRandomValues(bytes.subarray(at, at + 65536));
  return (blob = new Blob([bytes], { type: 'application/octet-stream' }));
}

/** One upload, counted as it goes (XMLHttpRequest tells how much of a body has gone; fetch cannot). */
function upload(count: (n: number) => void, stop: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    let sent = 0;
    xhr.open('POST', fresh('/api/speedtest/empty'));
    xhr.upload.onprogress = (e) => {
      count(e.loaded - sent);
      sent = e.loaded;
    };
    xhr.onload = () => {
      count(UPLOAD_BLOB_BYTES - sent);
      if (xhr.status === 200) resolve();
      else reject(new Error(`upload answered ${xhr.status}`));
    };
    xhr.onerror = () => reject(new Error('upload failed'));
    xhr.onabort = () => resolve();
    stop.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(uploadBlob());
  });
}

export async function measureSpeed(opts: MeasureOptions): Promise<SpeedResult> {
  const ms = (opts.seconds ?? 5) * 1000;
  opts.onPhase?.('ping', null);
  const p = await ping(opts.signal);
  opts.onPhase?.('download', null);
  const downloadMbps = await timed(ms, opts.signal, download, (r) => opts.onPhase?.('download', r));
  opts.onPhase?.('upload', null);
  const uploadMbps = await timed(ms, opts.signal, upload, (r) => opts.onPhase?.('upload', r));
  const round = (n: number) => Math.round(n * 10) / 10;
  return { downloadMbps: round(downloadMbps), uploadMbps: round(uploadMbps), pingMs: round(p.pingMs), jitterMs: round(p.jitterMs) };
}

/** What a result means for this device, in a sentence or two (video from Hearth needs the download direction). */
export function verdict(r: SpeedResult): string {
  const down = r.downloadMbps;
  const main =
    down >= 100
      ? 'Fast: good enough for 4K video and quick copies of big files on this device.'
      : down >= 25
        ? 'Good enough for 4K video on this device.'
        : down >= 8
          ? 'Good for HD video on this device; 4K video may stop to load.'
          : down >= 3
            ? 'Enough for music and standard-quality video on this device; HD video may stop to load.'
            : 'Slow: music and pages work, but video will stop to load. Move closer to the Wi-Fi router, or use a cable.';
  const lag = r.pingMs > 50 || r.jitterMs > 30 ? ' Replies are slow or uneven, so voice chat and live cameras may lag.' : '';
  return main + lag;
}

/** A name for this device from its browser (the member's phone or computer), for the stored result. */
export function deviceName(ua: string = navigator.userAgent): string {
  if (/iPhone/.test(ua)) return 'iPhone';
  if (/iPad/.test(ua)) return 'iPad';
  if (/Android/.test(ua)) return /Mobile/.test(ua) ? 'Android phone' : 'Android tablet';
  if (/Windows/.test(ua)) return 'Windows computer';
  if (/Macintosh/.test(ua)) return 'Mac';
  if (/CrOS/.test(ua)) return 'Chromebook';
  if (/Linux/.test(ua)) return 'Linux computer';
  return 'This device';
}
