// The video hub's admin settings (issue 35): the Invidious or Piped instance search goes to, the
// PeerTube instances the hub lists, and the size of the video cache. Never an env default: until an
// admin sets an instance, search is refused with a sentence. Addresses pass the SSRF guard's rules
// (http(s), no credentials, no home-network or reserved address) before they are kept.
import { assertAdmin, type Actor } from '../../actor.js';
import type { AppSettingsStore } from '../../db/kv.js';
import { BadRequestError } from '../../errors.js';
import { BlockedUrlError, OfflineModeError, type SsrfGuard } from '../../platform/ssrf.js';
import { DEFAULT_VSTREAM_CAP_BYTES, type VideoSettings, type VideoSettingsBody } from './schema.js';

export const SETTING_VIDEOS = 'videos.settings';

export class VideoSettingsService {
  constructor(private readonly deps: { settings: AppSettingsStore; guard: SsrfGuard }) {}

  async get(): Promise<VideoSettings> {
    const kept = (await this.deps.settings.get<Partial<VideoSettings>>(SETTING_VIDEOS)) ?? {};
    return {
      invidiousUrl: kept.invidiousUrl ?? null,
      pipedUrl: kept.pipedUrl ?? null,
      peertubeUrls: kept.peertubeUrls ?? [],
      vstreamCapBytes: kept.vstreamCapBytes ?? DEFAULT_VSTREAM_CAP_BYTES,
    };
  }

  /** An instance's address as kept: checked by the guard's rules, without a trailing slash, query or fragment. */
  private address(raw: string, what: string): string {
    let url: URL;
    try {
      url = this.deps.guard.checkUrl(raw);
    } catch (err) {
      // offline: nothing is reached now; the address is checked again at every use
      if (err instanceof OfflineModeError) url = new URL(raw);
      else if (err instanceof BlockedUrlError) throw new BadRequestError(`The ${what} address is one Hearth does not reach (a home-network, reserved or password-carrying address). Use the instance’s public https address.`, undefined, 'address_refused');
      else throw new BadRequestError(`The ${what} address is not a web address Hearth can use.`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new BadRequestError(`The ${what} address must start with https://.`);
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  }

  async put(actor: Actor, body: VideoSettingsBody): Promise<VideoSettings> {
    assertAdmin(actor);
    const now = await this.get();
    const next: VideoSettings = {
      invidiousUrl: body.invidiousUrl === undefined ? now.invidiousUrl : body.invidiousUrl && this.address(body.invidiousUrl, 'Invidious'),
      pipedUrl: body.pipedUrl === undefined ? now.pipedUrl : body.pipedUrl && this.address(body.pipedUrl, 'Piped'),
      peertubeUrls: body.peertubeUrls === undefined ? now.peertubeUrls : [...new Set(body.peertubeUrls.map((u) => this.address(u, 'PeerTube')))],
      vstreamCapBytes: body.vstreamCapBytes ?? now.vstreamCapBytes,
    };
    await this.deps.settings.set(SETTING_VIDEOS, next);
    return next;
  }
}
