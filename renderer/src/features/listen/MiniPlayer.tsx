// The mini-player (issue 35): one <audio> element the shell keeps while the member moves between
// pages, playing Hearth's own copy of the episode (/api/podcasts/episodes/:id/audio, with Range, so
// seeking works). Play/pause, back 15 s, forward 30 s, a position slider, the speed (remembered on
// this device), a sleep timer, and the phone's lock screen controls (Media Session) where the
// browser has them. It starts where the member left off,
// and saves the position (stamped now) every 15 s while playing, on pause, at the end, when the
// page is hidden or closed, and when another episode takes its place.
import { useCallback, useEffect, useRef, useState, type ReactElement } from 'react';
import { Link } from 'react-router';
import { IconButton } from '../../ui/IconButton';
import { Icon, Spinner } from '../../ui/icons';
import { mediaClock as clock, skipBy, SleepPicker, SpeedPicker, useMediaSession, usePlaybackSpeed, useSleepTimer } from '../../ui/media-controls';
import { lendToggle, reportPlaying, stopPlaying, type NowPlaying } from './player-store';
import { audioPath, useSaveProgress } from './queries';
import './player.css';

const SAVE_EVERY_MS = 15_000;

export function MiniPlayer({ now }: { now: NowPlaying }): ReactElement {
  const audio = useRef<HTMLAudioElement>(null);
  const saveProgress = useSaveProgress();
  const [playing, setPlaying] = useState(false);
  const [waiting, setWaiting] = useState(true);
  const [position, setPosition] = useState(now.startAt);
  const [duration, setDuration] = useState(now.durationSec ?? 0);
  const [error, setError] = useState<string | null>(null);
  const [saveError, setSaveError] = useState(false);
  const saved = useRef(now.startAt);
  const [speed, setSpeed] = usePlaybackSpeed(audio);
  const sleep = useSleepTimer(audio);

  /** Saves the position if it moved since the last save (`el`: the element, once React has let go of it). */
  const save = useCallback(
    (keepalive = false, el: HTMLAudioElement | null = audio.current) => {
      const a = el;
      if (!a || a.readyState === 0) return;
      const pos = a.currentTime;
      if (Math.round(pos) === Math.round(saved.current)) return;
      saved.current = pos;
      const dur = Number.isFinite(a.duration) ? a.duration : (now.durationSec ?? pos);
      saveProgress(now.episodeId, pos, dur, keepalive).then(
        () => setSaveError(false),
        () => setSaveError(true),
      );
    },
    [saveProgress, now.durationSec, now.episodeId],
  );

  // start where the member left off, once the audio's length is known
  useEffect(() => {
    const a = audio.current;
    const at = now.startAt;
    if (!a || at <= 0) return;
    const seek = () => {
      if (at < (Number.isFinite(a.duration) ? a.duration : Infinity) && a.currentTime < at) a.currentTime = at;
    };
    if (a.readyState >= HTMLMediaElement.HAVE_METADATA) seek();
    else a.addEventListener('loadedmetadata', seek, { once: true });
    return () => a.removeEventListener('loadedmetadata', seek);
  }, [now.startAt]);

  // every play request (a new episode, or the current one asked for again) plays
  useEffect(() => {
    const a = audio.current;
    if (!a) return;
    a.play().catch(() => setPlaying(false));
  }, [now.request]);

  // every 15 s while playing; the page hidden or closed; and once more when this episode goes
  useEffect(() => {
    if (!playing) return;
    const t = window.setInterval(() => save(), SAVE_EVERY_MS);
    return () => window.clearInterval(t);
  }, [playing, save]);
  useEffect(() => {
    const el = audio.current;
    const hidden = () => {
      if (document.visibilityState === 'hidden') save(true);
    };
    const leaving = () => save(true);
    document.addEventListener('visibilitychange', hidden);
    window.addEventListener('pagehide', leaving);
    return () => {
      document.removeEventListener('visibilitychange', hidden);
      window.removeEventListener('pagehide', leaving);
      save(false, el); // another episode took its place, or the player closed
    };
  }, [save]);

  const skip = useCallback((by: number) => skipBy(audio.current, by), []);
  const toggle = useCallback(() => {
    const a = audio.current;
    if (!a) return;
    if (a.paused) a.play().catch(() => undefined);
    else a.pause();
  }, []);

  useMediaSession(audio, now.title, now.showTitle);
  // the episode lists' Play button says Pause or Resume by what the audio does, and does it
  useEffect(() => lendToggle(toggle), [toggle]);
  useEffect(() => reportPlaying(playing), [playing]);
  useEffect(() => () => reportPlaying(false), []);

  const close = () => {
    audio.current?.pause();
    save();
    stopPlaying();
  };

  const label = `${now.title}, ${now.showTitle}`;
  return (
    <section className="mini-player" aria-label="Podcast player" data-testid="mini-player">
      <audio
        ref={audio}
        src={audioPath(now.episodeId)}
        preload="auto"
        onLoadedMetadata={(e) => Number.isFinite(e.currentTarget.duration) && setDuration(e.currentTarget.duration)}
        onDurationChange={(e) => Number.isFinite(e.currentTarget.duration) && setDuration(e.currentTarget.duration)}
        onTimeUpdate={(e) => setPosition(e.currentTarget.currentTime)}
        onPlay={() => {
          setPlaying(true);
          setError(null);
        }}
        onPause={() => {
          setPlaying(false);
          save();
        }}
        onEnded={() => {
          setPlaying(false);
          sleep.ended();
          save();
        }}
        onWaiting={() => setWaiting(true)}
        onCanPlay={() => setWaiting(false)}
        onPlaying={() => setWaiting(false)}
        onError={() => {
          setPlaying(false);
          setWaiting(false);
          setError('This episode could not be played: its host did not send audio this browser can play. Try again later.');
        }}
      />
      <div className="mini-player__what">
        <Link to="/listen" className="mini-player__title" title={label}>
          {now.title}
        </Link>
        <span className="mini-player__show">{now.showTitle}</span>
      </div>
      <div className="mini-player__controls">
        <button type="button" className="btn btn--ghost btn--compact mini-player__skip" onClick={() => skip(-15)} disabled={!!error} aria-label="Back 15 seconds" title="Back 15 seconds">
          <Icon name="back" size={18} />
          15
        </button>
        <button type="button" className="btn btn--primary btn--icon mini-player__play" onClick={toggle} disabled={!!error} aria-label={playing ? 'Pause' : 'Play'} data-testid="mini-player-toggle">
          {playing && waiting ? <Spinner size={20} /> : <Icon name={playing ? 'pause' : 'play'} size={22} />}
        </button>
        <button type="button" className="btn btn--ghost btn--compact mini-player__skip" onClick={() => skip(30)} disabled={!!error} aria-label="Forward 30 seconds" title="Forward 30 seconds">
          30
          <Icon name="forward" size={18} />
        </button>
        <IconButton icon="close" label="Close the player" labelShown="never" tone="ghost" onClick={close} />
      </div>
      <div className="mini-player__seek">
        <span className="mini-player__time" aria-hidden="true">
          {clock(position)}
        </span>
        <input
          type="range"
          className="mini-player__range"
          min={0}
          max={Math.max(1, Math.round(duration))}
          step={1}
          value={Math.min(Math.round(position), Math.max(1, Math.round(duration)))}
          aria-label="Position in the episode"
          aria-valuetext={`${clock(position)} of ${clock(duration)}`}
          disabled={!!error || duration <= 0}
          onChange={(e) => {
            const a = audio.current;
            if (a) a.currentTime = Number(e.target.value);
            setPosition(Number(e.target.value));
          }}
        />
        <span className="mini-player__time" aria-hidden="true">
          {clock(duration)}
        </span>
        <SpeedPicker speed={speed} onChange={setSpeed} disabled={!!error} />
        <SleepPicker timer={sleep} disabled={!!error} />
      </div>
      <p className="mini-player__note" role="status">
        {error ?? (saveError ? 'Your place could not be saved just now; Hearth will try again.' : '')}
      </p>
    </section>
  );
}
