// The video hub in the app store: every host it contacts, and when.
import type { ToolDefinition } from '../tools/schema.js';

export const VIDEOS_TOOL_ID = 'videos';

export const videosTools: ToolDefinition[] = [
  {
    id: VIDEOS_TOOL_ID,
    name: 'Videos',
    description:
      'New videos from the YouTube channels the household follows, the PeerTube instances an admin lists and the video episodes of your podcasts, in one list, played in the mini-player. Creative Commons videos can be kept for offline viewing; YouTube videos never are.',
    offline: false,
    examples: ['Follow a YouTube channel by its address', 'Watch while browsing other pages', 'Keep a PeerTube video for the train'],
    configSchema: { type: 'object', properties: {}, additionalProperties: false },
    dataSources: [
      { type: 'rss', domain: 'www.youtube.com', purpose: 'The public pages and feeds of the channels the household follows (read every 2 hours)' },
      { type: 'cdn', domain: 'i.ytimg.com', purpose: 'The pictures of those channels’ videos, fetched once by Hearth' },
      { type: 'web', domain: 'www.youtube-nocookie.com', purpose: 'YouTube’s privacy-enhanced player runs in your browser, which talks to Google directly while you watch' },
      { type: 'api', domain: 'the Invidious or Piped instance an admin sets', purpose: 'Video search terms, only when an admin has set an instance' },
      { type: 'cdn', domain: 'the PeerTube instances an admin lists', purpose: 'Their recent videos, their pictures and the video files Hearth plays or keeps' },
      { type: 'cdn', domain: 'the hosts of your podcasts’ video episodes', purpose: 'The episode files Hearth plays or keeps' },
    ],
    category: 'Media',
    icon: '🎬',
  },
];
