// The video hub (issue 35): requests and answers of /api/youtube, /api/videos, /api/admin/videos
// and /api/vstream.
import { z } from 'zod';

/** A YouTube channel id: "UC" and 22 more characters. */
export const CHANNEL_ID = /^UC[\w-]{22}$/;
/** A YouTube video id. */
export const VIDEO_ID = /^[\w-]{11}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const AddChannelBody = z
  .strictObject({
    url: z.string().trim().min(1, 'Paste the channel’s address or @handle.').max(500).optional(),
    channelId: z.string().trim().regex(CHANNEL_ID, 'A channel id starts with UC and has 24 characters.').optional(),
  })
  .refine((b) => (b.url === undefined) !== (b.channelId === undefined), 'Send the channel’s address (url) or its id (channelId), one of the two.');
export type AddChannelBody = z.infer<typeof AddChannelBody>;

export const IdParams = z.object({ id: z.string().min(1).max(100) });

export const Channel = z.object({
  id: z.string(),
  channelId: z.string(),
  title: z.string(),
  /** Who added it (null when that member is gone). */
  addedBy: z.string().nullable(),
  addedAt: z.string(),
  /** The caller added it or is an admin: they may remove it. */
  canRemove: z.boolean(),
});
export type Channel = z.infer<typeof Channel>;
export const ChannelsResponse = z.object({ channels: z.array(Channel) });
export const ChannelResponse = z.object({ channel: Channel });

export const MAX_OPML_BYTES = 2 * 1024 * 1024;
export const OpmlImportResponse = z.object({
  added: z.array(Channel),
  /** Channels the household already followed. */
  existing: z.number().int(),
  /** Outlines that are not a YouTube channel's feed, or whose channel YouTube does not know. */
  failed: z.number().int(),
});
export type OpmlImportResponse = z.infer<typeof OpmlImportResponse>;

export const VideoSource = z.enum(['youtube', 'peertube', 'podcast']);
export type VideoSource = z.infer<typeof VideoSource>;

/** One video as the hub shows it; playback is an embed (YouTube) or a Hearth address for a <video>. */
export const Video = z.object({
  /** `<source>:<sourceId>` (PeerTube: with the instance's host), unique in one answer. */
  key: z.string(),
  source: VideoSource,
  /** YouTube video id, PeerTube uuid or podcast episode id. */
  sourceId: z.string(),
  title: z.string(),
  /** The channel, PeerTube channel or podcast show. */
  channel: z.string().nullable(),
  publishedAt: z.string().nullable(),
  durationSec: z.number().nullable(),
  /** Hearth's own address of the picture (fetched once by Hearth), or null. */
  thumbnailUrl: z.string().nullable(),
  /** YouTube: the privacy-enhanced embed (youtube-nocookie.com); the viewer's browser talks to Google. */
  embedUrl: z.string().nullable(),
  /** PeerTube and podcast videos: Hearth's address of the file for a <video> (Range answered). */
  streamUrl: z.string().nullable(),
  /** PeerTube: the instance's address. */
  instance: z.string().nullable(),
  /** The licence as the source names it (PeerTube), else null. */
  licence: z.string().nullable(),
  /** A copy may be kept in the video cache (a Creative Commons or public-domain PeerTube video, a podcast's video). */
  cacheable: z.boolean(),
});
export type Video = z.infer<typeof Video>;

export const Freshness = z.object({ fetchedAt: z.string(), ageSeconds: z.number(), stale: z.boolean() });
export const FeedResponse = z.object({
  videos: z.array(Video),
  /** Channels whose feed could not be read and has no copy yet. */
  unavailable: z.array(z.object({ channelId: z.string(), title: z.string() })),
  /** The oldest copy the answer was built from (null when there is none). */
  freshness: Freshness.nullable(),
});
export type FeedResponse = z.infer<typeof FeedResponse>;

export const SearchQuery = z.object({ q: z.string().trim().min(1, 'Type something to search for.').max(200) });
export const SearchResponse = z.object({ results: z.array(Video), instance: z.enum(['invidious', 'piped']) });
export type SearchResponse = z.infer<typeof SearchResponse>;

export const VstreamState = z.enum(['queued', 'downloading', 'ready', 'failed']);
export type VstreamState = z.infer<typeof VstreamState>;
export const VstreamEntry = z.object({
  id: z.string(),
  source: z.enum(['peertube', 'podcast']),
  sourceId: z.string(),
  title: z.string(),
  licence: z.string().nullable(),
  state: VstreamState,
  /** Why the copy could not be made (a sentence), when it failed. */
  error: z.string().nullable(),
  bytes: z.number().nullable(),
  createdAt: z.string(),
  lastWatchedAt: z.string().nullable(),
  /** Hearth's address of the copy once it is ready. */
  streamUrl: z.string().nullable(),
});
export type VstreamEntry = z.infer<typeof VstreamEntry>;
export const VstreamListResponse = z.object({ entries: z.array(VstreamEntry), usedBytes: z.number(), capBytes: z.number() });
export const VstreamBody = z.strictObject({
  source: VideoSource,
  id: z.string().trim().min(1).max(200),
  /** PeerTube: the instance the video is on (one the admin listed); found from the hub when left out. */
  instance: z.string().url().max(500).optional(),
});
export type VstreamBody = z.infer<typeof VstreamBody>;
export const VstreamStartResponse = z.object({ id: z.string(), state: VstreamState });

export const HubResponse = z.object({
  /** New from the followed channels, PeerTube and the caller's podcasts, newest first. */
  videos: z.array(Video),
  /** The caller's copies in the video cache (they play offline too). */
  cached: z.array(VstreamEntry),
  /** Sources that could not be read just now, as sentences. */
  notices: z.array(z.string()),
  /** An admin has set a search instance (Invidious or Piped). */
  searchConfigured: z.boolean(),
  /** Hearth is in offline mode: only saved copies and YouTube's embed (the browser's own connection) can play. */
  offline: z.boolean(),
  /** The oldest channel feed copy the list was built from (null: no channel read yet). */
  freshness: Freshness.nullable(),
});
export type HubResponse = z.infer<typeof HubResponse>;

export const PeertubeParams = z.object({ uuid: z.string().regex(UUID, 'Not a PeerTube video id.') });
export const InstanceQuery = z.object({ instance: z.string().url().max(500) });
export const YoutubeIdParams = z.object({ videoId: z.string().regex(VIDEO_ID, 'Not a YouTube video id.') });

export const DEFAULT_VSTREAM_CAP_BYTES = 5 * 1024 ** 3;
export const MAX_PEERTUBE_INSTANCES = 5;
const instanceUrl = z.string().trim().url('Each address must be a web address (https://…).').max(500);
export const VideoSettings = z.object({
  invidiousUrl: z.string().nullable(),
  pipedUrl: z.string().nullable(),
  peertubeUrls: z.array(z.string()),
  vstreamCapBytes: z.number().int(),
});
export type VideoSettings = z.infer<typeof VideoSettings>;
export const VideoSettingsResponse = z.object({ settings: VideoSettings, usedBytes: z.number() });
export const VideoSettingsBody = z.strictObject({
  invidiousUrl: instanceUrl.nullable().optional(),
  pipedUrl: instanceUrl.nullable().optional(),
  peertubeUrls: z.array(instanceUrl).max(MAX_PEERTUBE_INSTANCES, `At most ${MAX_PEERTUBE_INSTANCES} PeerTube instances.`).optional(),
  vstreamCapBytes: z
    .number()
    .int()
    .min(1, 'The cache needs room for at least one byte.')
    .max(10 * 1024 ** 4)
    .optional(),
});
export type VideoSettingsBody = z.infer<typeof VideoSettingsBody>;
