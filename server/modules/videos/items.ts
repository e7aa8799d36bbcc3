// One video as the hub answers it, from each source: YouTube plays in the privacy-enhanced embed
// (the browser talks to Google directly); PeerTube and podcast videos play from Hearth's own
// addresses (proxied with Range), so the browser talks only to Hearth.
import type { PodcastVideoEpisode } from '../podcasts/video-episodes-service.js';
import type { Video } from './schema.js';
import { isLicenceClean, type PtVideo, type YtEntry, type YtHit } from './sources.js';

export const NOCOOKIE_EMBED = 'https://www.youtube-nocookie.com/embed/';

export function youtubeVideo(v: YtEntry | YtHit, channel: string | null, withThumbnail: boolean): Video {
  return {
    key: `youtube:${v.videoId}`,
    source: 'youtube',
    sourceId: v.videoId,
    title: v.title,
    channel: v.author ?? channel,
    publishedAt: v.publishedAt,
    durationSec: 'durationSec' in v ? v.durationSec : null,
    thumbnailUrl: withThumbnail ? `/api/youtube/thumbnails/${v.videoId}` : null,
    embedUrl: `${NOCOOKIE_EMBED}${v.videoId}`,
    streamUrl: null,
    instance: null,
    licence: null,
    cacheable: false,
  };
}

const q = (instance: string) => `?instance=${encodeURIComponent(instance)}`;

export function peertubeVideo(instance: string, v: PtVideo): Video {
  return {
    key: `peertube:${new URL(instance).host}:${v.uuid}`,
    source: 'peertube',
    sourceId: v.uuid,
    title: v.name,
    channel: v.channel,
    publishedAt: v.publishedAt,
    durationSec: v.durationSec,
    thumbnailUrl: v.thumbnailPath ? `/api/videos/peertube/${v.uuid}/thumbnail${q(instance)}` : null,
    embedUrl: null,
    streamUrl: `/api/videos/peertube/${v.uuid}/stream${q(instance)}`,
    instance,
    licence: v.licence,
    cacheable: isLicenceClean(v.licenceId),
  };
}

export function podcastVideo(e: PodcastVideoEpisode): Video {
  return {
    key: `podcast:${e.id}`,
    source: 'podcast',
    sourceId: e.id,
    title: e.title,
    channel: e.show,
    publishedAt: e.publishedAt,
    durationSec: e.durationSec,
    thumbnailUrl: null,
    embedUrl: null,
    streamUrl: `/api/videos/podcast/${e.id}/stream`,
    instance: null,
    licence: null,
    cacheable: true,
  };
}

/** Newest first; undated last. */
export const byNewest = (a: Video, b: Video) => (b.publishedAt ?? '').localeCompare(a.publishedAt ?? '');
