// The video mini-player (issue 35): a small card the shell keeps while the member moves between
// pages. A YouTube video plays in YouTube's privacy-enhanced embed (youtube-nocookie.com; the
// viewer's browser talks to Google while it plays, and the card says so; YouTube's own player has
// its controls). A PeerTube, podcast or cached video plays in a <video> from Hearth's own address
// (Range answered, so seeking works), with back 15 s, forward 30 s, the speed (the same one the
// podcast player remembers on this device), a sleep timer and the phone's lock-screen controls
// (Media Session); it starts where the member left it and keeps the place (video-progress.ts).
import { useCallback, useEffect, useRef, useState, type ReactElement } from 'react';
import { Link } from 'react-router';
import { IconButton } from '../../ui/IconButton';
import { Icon } from '../../ui/icons';
import { skipBy, SleepPicker, SpeedPicker, useMediaSession, usePlaybackSpeed, useSleepTimer } from '../../ui/media-controls';
import { keepPlace, placeOf } from './video-progress';
import { stopVideo, type NowWatching } from './video-store';
import './video-player.css';

/** What the embed may do: run YouTube's player, go full screen, open YouTube in a new tab. */
const EMBED_SANDBOX = 'allow-scripts allow-same-origin allow-presentation allow-popups';
const KEEP_EVERY_MS = 15_000;

export function VideoPlayer({ now }: { now: NowWatching }): ReactElement {
  const video = useRef<HTMLVideoElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = usePlaybackSpeed(video);
  const sleep = useSleepTimer(video);
  const inVideo = !now.embedUrl && !!now.streamUrl;
  useMediaSession(video, now.title, now.channel ?? '', inVideo);

  // the place, kept when it moved by a second or more (`el`: the element, once React has let go of it)
  const kept = useRef(0);
  const keep = useCallback(
    (keepalive = false, el: HTMLVideoElement | null = video.current) => {
      if (!el || !now.place || el.readyState === 0 || Math.round(el.currentTime) === Math.round(kept.current)) return;
      kept.current = el.currentTime;
      keepPlace(now.place, el.currentTime, Number.isFinite(el.duration) ? el.duration : el.currentTime, keepalive).catch(() => undefined);
    },
    [now.place],
  );

  // play, from where the member left it once that is known
  useEffect(() => {
    const v = video.current;
    if (!v || !inVideo) return;
    v.play().catch(() => undefined);
    if (!now.place) return;
    let gone = false;
    placeOf(now.place).then(
      (at) => {
        if (gone || at <= 0) return;
        kept.current = at;
        const seek = () => {
          if (at < (Number.isFinite(v.duration) ? v.duration : Infinity) && v.currentTime < at) v.currentTime = at;
        };
        if (v.readyState >= HTMLMediaElement.HAVE_METADATA) seek();
        else v.addEventListener('loadedmetadata', seek, { once: true });
      },
      () => undefined, // no place known: from the top
    );
    return () => {
      gone = true;
    };
  }, [inVideo, now.place]);

  // every 15 s while playing; the page hidden or closed; and once more when this video goes
  useEffect(() => {
    if (!playing) return;
    const t = window.setInterval(() => keep(), KEEP_EVERY_MS);
    return () => window.clearInterval(t);
  }, [playing, keep]);
  useEffect(() => {
    const el = video.current;
    const hidden = () => document.visibilityState === 'hidden' && keep(true);
    const leaving = () => keep(true);
    document.addEventListener('visibilitychange', hidden);
    window.addEventListener('pagehide', leaving);
    return () => {
      document.removeEventListener('visibilitychange', hidden);
      window.removeEventListener('pagehide', leaving);
      keep(false, el);
    };
  }, [keep]);

  const embed = now.embedUrl ? `${now.embedUrl}?autoplay=1&playsinline=1&rel=0` : null;
  return (
    <section className={inVideo ? 'video-player video-player--own' : 'video-player'} aria-label="Video player" data-testid="video-player">
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
            onPlay={() => {
              setError(null);
              setPlaying(true);
            }}
            onPause={() => {
              setPlaying(false);
              keep();
            }}
            onEnded={() => {
              setPlaying(false);
              sleep.ended();
              keep();
            }}
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
      {inVideo ? (
        <div className="video-player__controls">
          <button type="button" className="btn btn--ghost btn--compact video-player__skip" onClick={() => skipBy(video.current, -15)} disabled={!!error} aria-label="Back 15 seconds" title="Back 15 seconds">
            <Icon name="back" size={18} />
            15
          </button>
          <button type="button" className="btn btn--ghost btn--compact video-player__skip" onClick={() => skipBy(video.current, 30)} disabled={!!error} aria-label="Forward 30 seconds" title="Forward 30 seconds">
            30
            <Icon name="forward" size={18} />
          </button>
          <SpeedPicker speed={speed} onChange={setSpeed} disabled={!!error} />
          <SleepPicker timer={sleep} disabled={!!error} />
        </div>
      ) : null}
      <p className="video-player__note" role="status">
        {error ?? ''}
      </p>
    </section>
  );
}
