// A device maker's web site for the inventory's web lookup: node:http on 127.0.0.1:0 serving a
// real PDF manual (test/fixtures/inventory/manual-pdf.ts), a support page with a phone number,
// an og:image and product pictures, and product JPEGs made with sharp. Its failure modes are
// addresses of their own, so a test picks one by what the search fake answers (see
// `searchAnswer`): a "PDF" that is an HTML page, a 200 MB PDF (streamed as it is read, never held
// in memory), a redirect to a private address, a broken image, a picture that is a web page.
// Every request is recorded; `bytesSent` counts the body bytes written per path.
import http, { type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import sharp from 'sharp';
import { makeManualPdf, MANUAL_FACTS } from '../fixtures/inventory/manual-pdf.js';
import type { FakeSearchResult, SearchAnswer } from './web-search.js';

export const HUGE_PDF_BYTES = 200 * 1024 * 1024;
export const SUPPORT_PHONE = '1-800-555-0199';

export interface ManufacturerSite {
  readonly url: string;
  /** Paths asked for, in order. */
  requests: string[];
  bytesSent: Map<string, number>;
  /** Where /manuals/moved.pdf redirects (default a 10.x address). */
  redirectTarget: string;
  /** The manual served at /manuals/cm-4200.pdf. */
  manual: Buffer;
  /** Absolute URL of a path on this site. */
  at(path: string): string;
  close(): Promise<void>;
}

async function jpeg(r: number, g: number, b: number): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 48, channels: 3, background: { r, g, b } } })
    .jpeg()
    .toBuffer();
}

export async function startManufacturerSite(opts: { manualPages?: number } = {}): Promise<ManufacturerSite> {
  const photos = [await jpeg(200, 40, 40), await jpeg(40, 200, 40), await jpeg(40, 40, 200), await jpeg(200, 200, 40)];
  const sockets = new Set<Socket>();
  const count = (path: string, n: number) => state.bytesSent.set(path, (state.bytesSent.get(path) ?? 0) + n);
  const send = (res: ServerResponse, path: string, status: number, type: string, body: Buffer | string) => {
    const buf = Buffer.isBuffer(body) ? body : Buffer.from(body);
    res.writeHead(status, { 'content-type': type, 'content-length': buf.length });
    res.end(buf);
    count(path, buf.length);
  };

  const supportPage = (base: string) => `<!doctype html>
<html><head><title>${MANUAL_FACTS.brand} ${MANUAL_FACTS.model} support</title>
<meta property="og:image" content="${base}/images/product-1.jpg">
<meta property="og:title" content="${MANUAL_FACTS.model}"></head>
<body><h1>${MANUAL_FACTS.brand} ${MANUAL_FACTS.model}</h1>
<p>Questions about your machine? Call customer care on ${SUPPORT_PHONE}, weekdays 8:00 to 18:00.</p>
<img src="/images/product-2.jpg" alt="Front"> <img src="images/product-3.jpg" alt="Side"> <img src="/images/product-4.jpg" alt="Back">
<a href="/manuals/cm-4200.pdf">Owner's manual (PDF)</a></body></html>`;

  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    state.requests.push(path);
    const photo = /^\/images\/product-(\d)\.jpg$/.exec(path);
    if (photo && photos[Number(photo[1]) - 1]) return send(res, path, 200, 'image/jpeg', photos[Number(photo[1]) - 1]!);
    switch (path) {
      case '/manuals/cm-4200.pdf':
        return send(res, path, 200, 'application/pdf', state.manual);
      case '/manuals/not-a-pdf.pdf':
        // a download page where a PDF was promised
        return send(res, path, 200, 'text/html', '<!doctype html><html><body><p>Your download will start shortly…</p></body></html>');
      case '/manuals/moved.pdf':
        res.writeHead(302, { location: state.redirectTarget, 'content-length': 0 });
        return res.end();
      case '/manuals/huge.pdf': {
        // 200 MB of "PDF", chunked (no Content-Length to refuse early), written only as fast as it is read
        res.writeHead(200, { 'content-type': 'application/pdf' });
        const chunk = Buffer.alloc(256 * 1024, 0x20);
        Buffer.from('%PDF-1.4\n').copy(chunk);
        let sent = 0;
        const pump = () => {
          while (sent < HUGE_PDF_BYTES && !res.destroyed) {
            sent += chunk.length;
            count(path, chunk.length);
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          if (!res.destroyed) res.end();
        };
        res.on('error', () => undefined);
        return pump();
      }
      case '/support/cm-4200':
        return send(res, path, 200, 'text/html; charset=utf-8', supportPage(state.url));
      case '/images/broken.jpg':
        return send(res, path, 200, 'image/jpeg', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(500, 7)]));
      case '/images/page.jpg':
        return send(res, path, 200, 'text/html', '<!doctype html><p>Image not found</p>');
      default:
        return send(res, path, 404, 'text/html', '<h1>Not found</h1>');
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const state: ManufacturerSite = {
    url,
    requests: [],
    bytesSent: new Map(),
    redirectTarget: 'http://10.0.0.8/manual.pdf',
    manual: makeManualPdf(opts.manualPages),
    at: (p) => `${url}${p}`,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
  return state;
}

export interface LookupScenario {
  /** Manual search results, in order (paths on the site or absolute URLs). */
  manuals?: string[];
  /** Support search results. */
  support?: string[];
  /** Image search results' img_src. */
  images?: string[];
  /** How-to video results. */
  videos?: FakeSearchResult[];
}

export const DEFAULT_VIDEOS: FakeSearchResult[] = [
  { url: 'https://www.youtube.com/watch?v=brewtide-descale', title: `How to descale the ${MANUAL_FACTS.brand} ${MANUAL_FACTS.model}`, thumbnail: 'https://i.ytimg.com/vi/brewtide-descale/hq.jpg' },
  { url: 'https://www.youtube.com/watch?v=brewtide-filter', title: `${MANUAL_FACTS.model}: changing the water filter` },
];

/**
 * What the search fake finds for the maker's device: manual PDFs for "… manual filetype:pdf",
 * the support page for "… support", product pictures for images and how-to videos for videos.
 */
export function searchAnswer(site: ManufacturerSite, s: LookupScenario = {}): SearchAnswer {
  const abs = (p: string) => (/^https?:/.test(p) ? p : site.at(p));
  const manuals = s.manuals ?? ['/manuals/cm-4200.pdf'];
  const support = s.support ?? ['/support/cm-4200'];
  const images = s.images ?? ['/images/product-1.jpg', '/images/product-2.jpg', '/images/product-3.jpg', '/images/product-4.jpg'];
  return (q, category) => {
    if (category === 'videos') return s.videos ?? DEFAULT_VIDEOS;
    if (category === 'images') return images.map((p, i) => ({ url: site.at(`/products/${i}`), title: `${MANUAL_FACTS.model} photo ${i + 1}`, img_src: abs(p) }));
    if (/manual/i.test(q)) return [{ url: 'https://forum.example/thread/42', title: 'Anyone have the manual?' }, ...manuals.map((p) => ({ url: abs(p), title: `${MANUAL_FACTS.model} owner's manual [PDF]` }))];
    if (/support/i.test(q)) return support.map((p) => ({ url: abs(p), title: `${MANUAL_FACTS.brand} ${MANUAL_FACTS.model} support`, content: 'Customer care and downloads' }));
    return [];
  };
}
