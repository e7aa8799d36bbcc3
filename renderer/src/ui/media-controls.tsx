// What the podcast mini-player and the video player's <video> share (issue 35): skipping, the
// playback speed (remembered on this device and applied to whatever plays next), the sleep timer
// (counts down while something plays; pauses it when it runs out, or at the end of the episode),
// and the phone's lock-screen controls (Media Session). The two pickers are native selects laid
// over a short visible value ("1.5×", "14:59"), so each stays one 44 px target in a narrow bar.
import { useCallback, useEffect, useRef, useState, type ReactElement, type RefObject } from 'react';
import { formatClock } from './format';
import { fmt } from './locale';
import './media-controls.css';

type MediaRef = RefObject<HTMLMediaElement | null>;

/** 1:05 or 1:02:05. */
export const mediaClock = (s: number): string => (s >= 3600 ? `${Math.floor(s / 3600)}:${formatClock(s % 3600).padStart(5, '0')}` : formatClock(s));

/** Moves the media by `by` seconds, kept between the start and the end. */
export function skipBy(media: HTMLMediaElement | null, by: number): void {
  if (!media) return;
  const end = Number.isFinite(media.duration) ? media.duration : Infinity;
  media.currentTime = Math.min(Math.max(0, media.currentTime + by), end);
}

export const SPEEDS = [0.75, 1, 1.25, 1.5, 1.75, 2] as const;
const SPEED_KEY = 'hearth:playback-speed';

function savedSpeed(): number {
  try {
    const v = Number(localStorage.getItem(SPEED_KEY));
    return (SPEEDS as readonly number[]).includes(v) ? v : 1;
  } catch {
    return 1; // storage refused (private mode): normal speed
  }
}

/** The speed chosen last on this device, applied to the media (and kept for the next one). */
export function usePlaybackSpeed(media: MediaRef): [number, (speed: number) => void] {
  const [speed, setSpeed] = useState(savedSpeed);
  useEffect(() => {
    const m = media.current;
    if (!m) return;
    // the default survives a new source loading; the rate applies now
    m.defaultPlaybackRate = speed;
    m.playbackRate = speed;
  }, [media, speed]);
  const choose = useCallback((s: number) => {
    setSpeed(s);
    try {
      localStorage.setItem(SPEED_KEY, String(s));
    } catch {
      // not remembered; it still applies now
    }
  }, []);
  return [speed, choose];
}

export type SleepChoice = 'off' | 'end' | '15' | '30' | '45' | '60';
const SLEEP_CHOICES: [SleepChoice, string][] = [
  ['off', 'No sleep timer'],
  ['15', '15 minutes'],
  ['30', '30 minutes'],
  ['45', '45 minutes'],
  ['60', '60 minutes'],
  ['end', 'At the end of the episode'],
];

export interface SleepTimer {
  choice: SleepChoice;
  choose: (c: SleepChoice) => void;
  /** Seconds of playing left before the pause (null: off, or the end is not known yet). */
  left: number | null;
  /** Call from the media's `ended`: an "end of the episode" timer has done its work. */
  ended: () => void;
}

/** A sleep timer over the media: counts down while it plays, pauses it when it runs out (the player's own pause handler saves the place). */
export function useSleepTimer(media: MediaRef): SleepTimer {
  const [choice, setChoice] = useState<SleepChoice>('off');
  const [left, setLeft] = useState<number | null>(null);
  const remaining = useRef(0);
  const last = useRef(0);

  useEffect(() => {
    if (choice === 'off') return;
    const tick = () => {
      const m = media.current;
      if (choice === 'end') {
        setLeft(m && Number.isFinite(m.duration) ? Math.max(0, (m.duration - m.currentTime) / (m.playbackRate || 1)) : null);
        return;
      }
      const now = Date.now();
      if (m && !m.paused) remaining.current -= (now - last.current) / 1000;
      last.current = now;
      if (remaining.current <= 0) {
        m?.pause();
        setChoice('off');
        setLeft(null);
        return;
      }
      setLeft(remaining.current);
    };
    const t = window.setInterval(tick, 1000);
    return () => window.clearInterval(t);
  }, [choice, media]);

  const choose = useCallback(
    (c: SleepChoice) => {
      setChoice(c);
      remaining.current = c === 'off' || c === 'end' ? 0 : Number(c) * 60;
      last.current = Date.now();
      const m = media.current;
      setLeft(c === 'off' ? null : c === 'end' ? (m && Number.isFinite(m.duration) ? Math.max(0, m.duration - m.currentTime) / (m.playbackRate || 1) : null) : remaining.current);
    },
    [media],
  );
  const ended = useCallback(() => {
    setChoice((c) => (c === 'end' ? 'off' : c));
    setLeft((l) => (choice === 'end' ? null : l));
  }, [choice]);
  return { choice, choose, left, ended };
}

const speedText = (s: number) => `${fmt().number(s)}×`;

export function SpeedPicker({ speed, onChange, disabled = false }: { speed: number; onChange: (s: number) => void; disabled?: boolean }): ReactElement {
  return (
    <span className="media-pick" title="Playback speed">
      <span className="media-pick__shown" aria-hidden="true">
        {speedText(speed)}
      </span>
      <select className="media-pick__select" aria-label="Playback speed" value={String(speed)} disabled={disabled} onChange={(e) => onChange(Number(e.target.value))}>
        {SPEEDS.map((s) => (
          <option key={s} value={String(s)}>
            {speedText(s)}
          </option>
        ))}
      </select>
    </span>
  );
}

export function SleepPicker({ timer, disabled = false }: { timer: SleepTimer; disabled?: boolean }): ReactElement {
  const { choice, left } = timer;
  const shown = choice === 'off' ? 'Sleep' : left !== null ? mediaClock(Math.ceil(left)) : 'End';
  const name = choice === 'off' ? 'Sleep timer' : left !== null ? `Sleep timer: pauses in ${mediaClock(Math.ceil(left))}` : 'Sleep timer: pauses at the end';
  return (
    <span className={choice === 'off' ? 'media-pick' : 'media-pick media-pick--on'} title={name}>
      <span className="media-pick__shown" aria-hidden="true" data-testid="sleep-left">
        {shown}
      </span>
      <select className="media-pick__select" aria-label={name} value={choice} disabled={disabled} onChange={(e) => timer.choose(e.target.value as SleepChoice)}>
        {SLEEP_CHOICES.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </span>
  );
}

/** The lock screen's controls (Media Session), where the browser has them: play, pause, back 15 s, forward 30 s. */
export function useMediaSession(media: MediaRef, title: string, artist: string, enabled = true): void {
  useEffect(() => {
    if (!enabled || !('mediaSession' in navigator)) return;
    const ms = navigator.mediaSession;
    ms.metadata = new MediaMetadata({ title, artist });
    const handlers: [MediaSessionAction, MediaSessionActionHandler][] = [
      ['play', () => void media.current?.play()],
      ['pause', () => media.current?.pause()],
      ['seekbackward', () => skipBy(media.current, -15)],
      ['seekforward', () => skipBy(media.current, 30)],
    ];
    const set = (action: MediaSessionAction, handler: MediaSessionActionHandler | null) => {
      try {
        ms.setActionHandler(action, handler);
      } catch {
        // an action this browser does not know
      }
    };
    for (const [action, handler] of handlers) set(action, handler);
    return () => {
      for (const [action] of handlers) set(action, null);
    };
  }, [media, title, artist, enabled]);
}
