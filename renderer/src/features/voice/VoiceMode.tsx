// Hands-free voice mode for chat: the wake word (when the member has it on) or the Speak button →
// Hearth listens until the speaker stops → writes it down (POST /api/stt) → sends it → speaks the
// answer sentence by sentence while it is still being written → listens for the wake word again.
// Only on a secure page (the microphone exists nowhere else); elsewhere it says why and how to fix it.
import { useEffect, useRef, useState, type ReactElement } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import { uploadFile } from '../../api/upload';
import { Icon } from '../../ui/icons';
import { useUpdateVoiceChoices, useVoiceConfig } from './queries';
import { speechQueue, takeSentences, type SpeechQueue } from './speech-player';
import { canRecord, MIC_REFUSED } from './useRecorder';
import { canDetectWakeWords, startWakeDetector, type WakeDetector } from './wake-detector';
import './voice.css';

type Phase = 'starting' | 'waiting' | 'ready' | 'listening' | 'writing' | 'answering' | 'failed';

/** Voice mode needs Hearth to speak and to write down; the button is hidden where it has neither. */
export function useVoiceModeAvailable(): boolean {
  const voice = useVoiceConfig();
  return !!voice.data?.tts && !!voice.data.stt;
}

export function VoiceModeButton({ open, onToggle }: { open: boolean; onToggle: () => void }): ReactElement | null {
  if (!useVoiceModeAvailable()) return null;
  return (
    <button type="button" className={`btn btn--compact ${open ? 'btn--primary' : 'btn--secondary'}`} aria-pressed={open} onClick={onToggle} aria-label="Voice mode" title="Voice mode" data-testid="voice-mode-button">
      <Icon name="sparkles" size={20} />
      <span className="voice-mode-button__label">Voice mode</span>
    </button>
  );
}

const QUIET_RMS = 0.015;
const QUIET_AFTER_SPEECH_MS = 1_200;
const NOTHING_HEARD_MS = 7_000;
const LONGEST_QUESTION_MS = 20_000;

/** Records `stream` until the speaker has been quiet for a moment (or `finish` is called); null when nothing was said. */
function recordQuestion(stream: MediaStream, finishRef: { current: (() => void) | null }): Promise<File | null> {
  const ctx = new AudioContext();
  const analyser = ctx.createAnalyser();
  analyser.fftSize = 2048;
  ctx.createMediaStreamSource(stream).connect(analyser);
  const samples = new Float32Array(analyser.fftSize);
  const recorder = new MediaRecorder(stream);
  const parts: Blob[] = [];
  recorder.ondataavailable = (e) => parts.push(e.data);
  const began = performance.now();
  let heard = false;
  let quietSince = began;
  return new Promise((resolve) => {
    const finish = () => {
      clearInterval(timer);
      finishRef.current = null;
      if (recorder.state !== 'inactive') recorder.stop();
    };
    recorder.onstop = () => {
      void ctx.close();
      const type = recorder.mimeType || 'audio/webm';
      resolve(heard ? new File(parts, `question.${type.includes('mp4') ? 'm4a' : type.includes('ogg') ? 'ogg' : 'webm'}`, { type }) : null);
    };
    const timer = setInterval(() => {
      analyser.getFloatTimeDomainData(samples);
      let sum = 0;
      for (const v of samples) sum += v * v;
      const now = performance.now();
      if (Math.sqrt(sum / samples.length) > QUIET_RMS) {
        heard = true;
        quietSince = now;
      }
      if ((heard && now - quietSince > QUIET_AFTER_SPEECH_MS) || (!heard && now - began > NOTHING_HEARD_MS) || now - began > LONGEST_QUESTION_MS) finish();
    }, 100);
    finishRef.current = () => {
      heard = true;
      finish();
    };
    recorder.start();
  });
}

const STATUS: Record<Phase, string> = {
  starting: 'Opening the microphone…',
  waiting: '',
  ready: 'Tap Speak and ask your question.',
  listening: 'Listening… Hearth sends it when you stop talking.',
  writing: 'Writing down what you said…',
  answering: 'Answering…',
  failed: '',
};

export function VoiceModePanel({ busy, onAsk, onClose }: { busy: boolean; onAsk: (said: string, onToken: (text: string) => void) => Promise<void>; onClose: () => void }): ReactElement {
  const voice = useVoiceConfig();
  const updateChoices = useUpdateVoiceChoices();
  const config = voice.data;
  // the microphone needs a secure page; the wake word also needs AudioWorklet (without it, Speak still works)
  const secure = canRecord();
  const word = config ? (config.wakeWords.find((w) => w.id === config.choices.wakeWordId) ?? config.wakeWords[0] ?? null) : null;
  const wakeOn = !!config?.choices.wakeWord && word !== null && canDetectWakeWords();
  /** The switch as the member just set it, until the saved choice comes back. */
  const [switched, setSwitched] = useState<boolean | null>(null);
  const [phase, setPhase] = useState<Phase>('starting');
  const [note, setNote] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [heard, setHeard] = useState<string | null>(null);
  const stream = useRef<MediaStream | null>(null);
  const detector = useRef<WakeDetector | null>(null);
  const speech = useRef<SpeechQueue | null>(null);
  const finishQuestion = useRef<(() => void) | null>(null);
  const alive = useRef(true);
  const busyRef = useRef(busy);
  busyRef.current = busy;
  // the effect below reads these as they are now, without restarting the microphone
  const latest = useRef({ config, word, onAsk, listen: async () => {} });
  const hasConfig = !!config;
  const wordId = word?.id ?? null;

  const idle = () => {
    if (!alive.current) return;
    setPhase(detector.current ? 'waiting' : 'ready');
    detector.current?.resume();
  };

  const listen = async () => {
    const mic = stream.current;
    if (!mic || busyRef.current) return idle();
    detector.current?.pause();
    speech.current?.stop();
    setNote(null);
    setPhase('listening');
    const question = await recordQuestion(mic, finishQuestion);
    if (!alive.current) return;
    if (!question) {
      setNote('No words were heard. Try again a little closer to the microphone.');
      return idle();
    }
    setPhase('writing');
    try {
      const { text } = await uploadFile<{ text: string }>('/api/stt', question);
      if (!alive.current) return;
      if (!text.trim()) {
        setNote('No words were heard. Try again a little closer to the microphone.');
        return idle();
      }
      setHeard(text.trim());
      setPhase('answering');
      const queue = speechQueue((message) => setNote(message));
      speech.current = queue;
      let pending = '';
      await latest.current.onAsk(text.trim(), (piece) => {
        const [ready, rest] = takeSentences(pending + piece);
        pending = rest;
        queue.say(ready);
      });
      queue.say(pending);
      await queue.finish();
    } catch (err) {
      setNote(errorMessage(err));
    }
    idle();
  };

  latest.current = { config, word, onAsk, listen };

  useEffect(() => {
    alive.current = true;
    const { config, word } = latest.current;
    if (!secure || !config) return;
    let cancelled = false;
    void (async () => {
      setPhase('starting');
      setProblem(null);
      try {
        stream.current = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: true, noiseSuppression: true } });
      } catch {
        setProblem(MIC_REFUSED);
        setPhase('failed');
        return;
      }
      if (cancelled) return;
      if (wakeOn && word) {
        try {
          const started = await startWakeDetector(config, word.id, stream.current, () => void latest.current.listen());
          if (cancelled) return started.stop();
          detector.current = started;
        } catch {
          setNote(`The wake word could not be started on this device. Tap Speak instead.`);
        }
      }
      if (!cancelled) setPhase(detector.current ? 'waiting' : 'ready');
    })();
    return () => {
      cancelled = true;
      alive.current = false;
      finishQuestion.current?.();
      detector.current?.stop();
      detector.current = null;
      speech.current?.stop();
      for (const t of stream.current?.getTracks() ?? []) t.stop();
      stream.current = null;
    };
    // restarts when the member switches the wake word on or off
  }, [secure, hasConfig, wakeOn, wordId]);

  if (!secure) {
    return (
      <section className="voice-mode" aria-label="Voice mode" data-testid="voice-mode">
        <p className="voice-mode__note" data-testid="voice-mode-unavailable">
          <Icon name="lock" size={18} />
          <span>
            Voice mode needs the microphone, and browsers only open it on a secure connection; this page was opened over plain http. Open Hearth at its secure address (<Link to="/trust">how to trust it on this device</Link>).
          </span>
        </p>
        <button type="button" className="btn btn--ghost" onClick={onClose}>
          Close
        </button>
      </section>
    );
  }

  const status = phase === 'waiting' && word ? `Say “${word.name}”, or tap Speak.` : phase === 'failed' ? (problem ?? '') : STATUS[phase];
  return (
    <section className="voice-mode" aria-label="Voice mode" data-testid="voice-mode">
      <p className="voice-mode__status" role="status" aria-live="polite" data-testid="voice-mode-status">
        {status}
      </p>
      {heard ? <p className="voice-mode__heard">You said: “{heard}”</p> : null}
      {note ? <p className="voice-mode__problem">{note}</p> : null}
      <div className="voice-mode__bar">
        {phase === 'listening' ? (
          <button type="button" className="btn btn--primary" onClick={() => finishQuestion.current?.()}>
            <Icon name="forward" size={20} />
            Send now
          </button>
        ) : (
          <button type="button" className="btn btn--primary" disabled={phase !== 'waiting' && phase !== 'ready'} onClick={() => void listen()} data-testid="voice-mode-speak">
            <Icon name="chat" size={20} />
            Speak
          </button>
        )}
        {phase === 'answering' ? (
          <button type="button" className="btn btn--secondary" onClick={() => speech.current?.stop()}>
            <Icon name="pause" size={20} />
            Stop reading
          </button>
        ) : null}
        <button type="button" className="btn btn--ghost" onClick={onClose}>
          End voice mode
        </button>
      </div>
      {word && !canDetectWakeWords() ? <p className="muted">This browser cannot listen for a wake word (it has no AudioWorklet); tap Speak instead.</p> : null}
      {word && canDetectWakeWords() ? (
        <label className="voice-mode__wake">
          <input
            type="checkbox"
            checked={switched ?? wakeOn}
            disabled={updateChoices.isPending}
            onChange={(e) => {
              const on = e.target.checked;
              setSwitched(on);
              updateChoices.mutate(
                { wakeWord: on, wakeWordId: word.id },
                {
                  onSettled: () => setSwitched(null),
                  onError: (err) => setNote(errorMessage(err)),
                },
              );
            }}
            data-testid="wake-word-switch"
          />
          Listen for “{word.name}”
        </label>
      ) : null}
      {word ? <p className="voice-mode__licence">The wake word is heard on this device, nowhere else. Its model: {word.license}.</p> : null}
    </section>
  );
}
