// The video mini-player (issue 35): a small card the shell keeps while the member moves between
// pages. A YouTube video plays in YouTube's privacy-enhanced embed (youtube-nocookie.com; the
// viewer's browser talks to Google while it plays, and the card says so); a PeerTube, podcast or
// cached video plays in a <video> from Hearth's own address (Range answered, so seeking works).
// Media Session gives the phone's lock screen its title for the <video>.
import { useEffect, useRef, useState, type ReactElement } from 'react';
import { Link } from 'react-router';
import { IconButton } from '../../ui/IconButton';
import { stopVideo, type NowWatching } from './video-store';
import './video-player.css';

/** What the embed may do: run YouTube's player, go full screen, open YouTube in a new tab. */
const EMBED_SANDBOX = 'allow-scripts allow-same-origin allow-presentation allow-popups';

export function VideoPlayer({ now }: { now: NowWatching }): ReactElement {
  const video = useRef<HTMLVideoElement>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!now.streamUrl) return;
    video.current?.play().catch(() => undefined);
    if (!('mediaSession' in navigator)) return;
    navigator.mediaSession.metadata = new MediaMetadata({ title: now.title, artist: now.channel ?? '' });
  }, [now.streamUrl, now.title, now.channel]);

  const embed = now.embedUrl ? `${now.embedUrl}?autoplay=1&playsinline=1&rel=0` : null;
  return (
    <section className="video-player" aria-label="Video player" data-testid="video-player">
      <div className="video-player__frame">
        {embed ? (
          <iframe
            src={embed}
            title={`YouTube player: ${now.title}`}
            allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
            allowFullScreen
            sandbox={EMBED_SANDBOX}
            referrerPolicy="strict-origin-when-cross-origin"
          />
        ) : (
          <video
            ref={video}
            src={now.streamUrl ?? undefined}
            controls
            playsInline
            preload="metadata"
            aria-label={now.title}
            onPlay={() => setError(null)}
            onError={() => setError('This video could not be played: its source did not send a video this browser can play. Try again later.')}
          />
        )}
      </div>
      <div className="video-player__what">
        <Link to="/videos" className="video-player__title" title={now.title}>
          {now.title}
        </Link>
        <span className="video-player__channel">{embed ? 'In YouTube’s privacy-enhanced player: your browser talks to Google while it plays.' : (now.channel ?? '')}</span>
      </div>
      <IconButton icon="close" label="Close the video player" labelShown="never" tone="ghost" onClick={stopVideo} />
      <p className="video-player__note" role="status">
        {error ?? ''}
      </p>
    </section>
  );
}
