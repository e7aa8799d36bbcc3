// /media/play/:ratingKey: a film in the browser. A plain <video> whose source is Hearth's stream
// proxy (the browser asks with Range as it seeks; the media server's token stays on the server).
// It starts where the member left off (their viewOffset from the title's metadata), tells the
// server where they are every ~10 s while playing and at pause and end, and says in a sentence why
// a film does not play (not set up, an episode, the server off).
import { useEffect, useRef, useState, type ReactElement } from 'react';
import { Link, useParams } from 'react-router';
import { Icon } from '../../ui/icons';
import { usePageTitle } from '../../ui/usePageTitle';
import { PROGRESS_EVERY_MS, reportProgress, streamProblem, streamUrl, usePlayerMeta, type ProgressState } from './player';
import './player.css';

export function PlayerPage(): ReactElement {
  const { ratingKey = '' } = useParams();
  const meta = usePlayerMeta(ratingKey);
  const item = meta.data?.item ?? null;
  const title = item?.title ?? 'Film';
  usePageTitle(title);
  const videoRef = useRef<HTMLVideoElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const reporting = useRef(true);
  const resumed = useRef(false);

  const report = (state: ProgressState) => {
    const v = videoRef.current;
    if (!v || !reporting.current || !Number.isFinite(v.currentTime)) return;
    const duration = Number.isFinite(v.duration) ? v.duration * 1000 : null;
    void reportProgress(ratingKey, v.currentTime * 1000, duration, state).then((again) => {
      if (!again) reporting.current = false;
    });
  };
  const reportRef = useRef(report);
  reportRef.current = report;

  // every ~10 s while it plays
  useEffect(() => {
    const timer = window.setInterval(() => {
      const v = videoRef.current;
      if (v && !v.paused && !v.ended) reportRef.current('playing');
    }, PROGRESS_EVERY_MS);
    return () => window.clearInterval(timer);
  }, []);

  // the resume point, once both the film's length and the member's position are known
  const resume = () => {
    const v = videoRef.current;
    const offsetMs = item?.viewOffsetMs ?? null;
    if (!v || resumed.current || meta.isPending || !Number.isFinite(v.duration)) return;
    resumed.current = true;
    if (offsetMs && offsetMs / 1000 < v.duration - 5) v.currentTime = offsetMs / 1000;
  };
  useEffect(resume);

  const onError = () => {
    void streamProblem(ratingKey).then(setProblem);
  };
  // a title the server already says cannot play here (an episode, a show) is not left to the
  // <video>'s error event: its sentence is asked for as soon as the metadata says so
  const unplayable = item !== null && !item.playable;
  useEffect(() => {
    if (unplayable) void streamProblem(ratingKey).then(setProblem);
  }, [unplayable, ratingKey]);

  return (
    <section className="page player" aria-labelledby="player-title">
      <Link to="/media" className="btn btn--ghost btn--compact player__back">
        <Icon name="back" size={20} />
        Media
      </Link>
      <h1 id="player-title" className="page__title player__title">
        {title}
        {item?.year ? <span className="muted player__year"> ({item.year})</span> : null}
      </h1>
      {problem ? (
        <div className="state state--error" role="alert">
          <Icon name="error" size={28} />
          <p className="state__title">This film does not play here</p>
          <p className="state__body">{problem}</p>
          <Link to="/media" className="btn btn--secondary">
            Back to Media
          </Link>
        </div>
      ) : unplayable ? null : (
        <div className="player__frame">
          <video
            ref={videoRef}
            className="player__video"
            src={streamUrl(ratingKey)}
            controls
            playsInline
            preload="metadata"
            aria-label={`Play ${title}`}
            onLoadedMetadata={resume}
            onPause={() => report('paused')}
            onEnded={() => report('stopped')}
            onError={onError}
          />
        </div>
      )}
      {item?.summary && !problem ? <p className="player__summary">{item.summary}</p> : null}
    </section>
  );
}
