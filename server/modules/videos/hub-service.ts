// The video hub (issue 35): what is new from the channels the household follows, the PeerTube
// instances an admin listed (their recent local videos, cached an hour) and the video episodes of the
// caller's podcasts, newest first; PeerTube and podcast videos played through Hearth (the file asked
// through the SSRF guard with the player's Range passed on), so a browser talks only to Hearth.
import type { Readable } from 'node:stream';
import type { UserActor } from '../../actor.js';
import { BadRequestError, NotFoundError, ServiceUnavailableError, UpstreamError } from '../../errors.js';
import type { SourceFetcher, SourceSpec } from '../../platform/outside-sources/fetcher.js';
import { type CachedImage, parseCachedImage } from '../../platform/outside-sources/image.js';
import { BlockedUrlError, guardedRequest, OfflineModeError, offlineWho, type SsrfGuard } from '../../platform/ssrf.js';
import { byNewest, peertubeVideo, podcastVideo } from './items.js';
import type { VideosPorts } from './ports.js';
import type { HubResponse, Video, VstreamEntry } from './schema.js';
import type { VideoSettingsService } from './settings-service.js';
import { parsePeertubeList, parsePeertubeVideo, pickFile, type PtVideo, type PtVideoDetail } from './sources.js';
import type { YoutubeService } from './youtube-service.js';

const LIST_TTL_MS = 60 * 60_000;
const DETAIL_TTL_MS = 60 * 60_000;
const THUMB_TTL_MS = 30 * 24 * 60 * 60_000;
const MAX_THUMB_BYTES = 512 * 1024;
export const VIDEOS_USER_AGENT = 'Hearth/0.1 (self-hosted household server; video hub of the channels a household follows)';

export interface Proxied {
  status: number;
  headers: Record<string, string>;
  body: Readable;
}

export interface HubDeps {
  fetcher: SourceFetcher;
  guard: SsrfGuard;
  settings: VideoSettingsService;
  youtube: YoutubeService;
  podcastVideos: VideosPorts['podcastVideos'];
  /** The caller's copies in the video cache. */
  cached(actor: UserActor): Promise<VstreamEntry[]>;
  timeoutMs: number;
}

export class HubService {
  constructor(private readonly deps: HubDeps) {}

  private listSpec(instance: string): SourceSpec<PtVideo[]> {
    return { key: `peertube:list:${instance}`, source: 'peertube-list', url: `${instance}/api/v1/videos?sort=-publishedAt&count=15&isLocal=true`, ttlMs: LIST_TTL_MS, accept: 'application/json', parse: parsePeertubeList };
  }

  private detailSpec(instance: string, uuid: string): SourceSpec<PtVideoDetail> {
    return { key: `peertube:video:${instance}:${uuid}`, source: 'peertube-video', url: `${instance}/api/v1/videos/${uuid}`, ttlMs: DETAIL_TTL_MS, accept: 'application/json', parse: parsePeertubeVideo };
  }

  private get offline(): boolean {
    return this.deps.fetcher.offline;
  }

  async hub(actor: UserActor): Promise<HubResponse> {
    const s = await this.deps.settings.get();
    const notices: string[] = [];
    const [feed, peertube, podcasts, cached] = await Promise.all([
      this.deps.youtube.feed(),
      Promise.all(s.peertubeUrls.map(async (instance) => ({ instance, got: await this.deps.fetcher.read(this.listSpec(instance), 'unavailable').catch(() => null) }))),
      this.deps.podcastVideos.recent(actor, 30),
      this.deps.cached(actor),
    ]);
    const videos: Video[] = [...feed.videos, ...podcasts.map(podcastVideo)];
    const missing = feed.unavailable.map((c) => c.title).join(', ');
    if (missing) notices.push(this.offline ? `Hearth is in offline mode, and there is no copy yet of ${missing}.` : `YouTube could not be reached for ${missing}, and there is no copy yet.`);
    for (const { instance, got } of peertube) {
      if (got) videos.push(...got.payload.map((v) => peertubeVideo(instance, v)));
      else {
        const host = new URL(instance).host;
        notices.push(this.offline ? `Hearth is in offline mode, and the PeerTube instance ${host} was not read before.` : `The PeerTube instance ${host} could not be reached; its videos are left out for now.`);
      }
    }
    videos.sort(byNewest);
    return { videos, cached, notices, searchConfigured: Boolean(s.invidiousUrl || s.pipedUrl), offline: this.offline, freshness: feed.freshness };
  }

  /** An instance the admin listed (the only ones Hearth asks about PeerTube videos). */
  async instance(raw: string | undefined, uuid: string): Promise<string> {
    const listed = (await this.deps.settings.get()).peertubeUrls;
    if (raw !== undefined) {
      const at = listed.find((u) => u === raw.replace(/\/+$/, ''));
      if (!at) throw new NotFoundError('That PeerTube instance is not one the household lists.');
      return at;
    }
    for (const instance of listed) {
      const got = await this.deps.fetcher.peek<PtVideo[]>(this.listSpec(instance));
      if (got?.payload.some((v) => v.uuid === uuid)) return instance;
    }
    throw new NotFoundError('None of the household’s PeerTube instances lists that video.');
  }

  /** A PeerTube video's details (licence, files), cached an hour. */
  async peertube(instance: string, uuid: string): Promise<PtVideoDetail> {
    const unavailable = this.offline ? 'Hearth is in offline mode, so the PeerTube instance cannot be reached.' : 'The PeerTube instance could not be reached. Try again in a little while.';
    const { payload } = await this.deps.fetcher.read(this.detailSpec(instance, uuid), unavailable, { notFound: 'The PeerTube instance has no video with that id.' });
    return payload;
  }

  async peertubeThumbnail(instanceRaw: string, uuid: string): Promise<CachedImage> {
    const instance = await this.instance(instanceRaw, uuid);
    const listed = (await this.deps.fetcher.peek<PtVideo[]>(this.listSpec(instance)))?.payload.find((v) => v.uuid === uuid);
    const path = listed?.thumbnailPath ?? (await this.peertube(instance, uuid)).thumbnailPath;
    if (!path) throw new NotFoundError('This video has no picture.');
    const spec: SourceSpec<CachedImage> = { key: `peertube:thumb:${instance}:${uuid}`, source: 'peertube-thumbnail', url: `${instance}${path}`, ttlMs: THUMB_TTL_MS, accept: 'image/jpeg,image/png,image/webp', parse: (b) => parseCachedImage(b, MAX_THUMB_BYTES, 'a thumbnail') };
    return (await this.deps.fetcher.read(spec, this.offline ? 'Hearth is in offline mode, and this picture was not fetched before.' : 'This picture could not be fetched just now.')).payload;
  }

  async peertubeStream(instanceRaw: string, uuid: string, range: string | undefined, signal: AbortSignal): Promise<Proxied> {
    const instance = await this.instance(instanceRaw, uuid);
    const file = pickFile((await this.peertube(instance, uuid)).files);
    if (!file) throw new NotFoundError('This PeerTube video has no file Hearth can play.');
    return this.proxy(file.url, 'video/mp4', range, signal, 'The PeerTube video');
  }

  async podcastStream(actor: UserActor, episodeId: string, range: string | undefined, signal: AbortSignal): Promise<Proxied> {
    const e = await this.deps.podcastVideos.episode(actor, episodeId);
    if (!e) throw new NotFoundError('No such video episode.');
    return this.proxy(e.url, e.type, range, signal, 'The episode’s video');
  }

  /** The file through the guard (redirect hops checked) with the player's Range; its 200/206/416 and length headers passed on. */
  private async proxy(url: string, type: string, range: string | undefined, signal: AbortSignal, what: string): Promise<Proxied> {
    if (range !== undefined && !/^bytes=\d*-\d*$/.test(range)) throw new BadRequestError('Only one byte range (bytes=start-end) can be asked for.');
    let res;
    try {
      res = await guardedRequest(this.deps.guard, url, { headers: { 'user-agent': VIDEOS_USER_AGENT, ...(range ? { range } : {}) }, signal, headersTimeoutMs: this.deps.timeoutMs, bodyTimeoutMs: 5 * 60_000 });
    } catch (err) {
      if (err instanceof OfflineModeError) throw new ServiceUnavailableError('offline_mode', `Hearth is in offline mode, so ${what.toLowerCase()} cannot be fetched. Videos saved to the cache still play. ${offlineWho(err.reason)}`);
      if (err instanceof BlockedUrlError) throw new UpstreamError('address_refused', `${what} is at an address Hearth does not reach.`);
      throw new UpstreamError('upstream_failed', `${what} could not be reached. Try again in a little while.`);
    }
    if (![200, 206, 416].includes(res.statusCode)) {
      res.body.resume();
      throw new UpstreamError('upstream_failed', `${what}’s host answered ${res.statusCode}.`);
    }
    const headers: Record<string, string> = {};
    for (const h of ['content-length', 'content-range', 'accept-ranges']) {
      const v = res.headers[h];
      if (typeof v === 'string') headers[h] = v;
    }
    const sent = res.headers['content-type'];
    headers['content-type'] = typeof sent === 'string' && sent.startsWith('video/') ? sent : type.startsWith('video/') ? type : 'video/mp4';
    return { status: res.statusCode, headers, body: res.body };
  }
}
