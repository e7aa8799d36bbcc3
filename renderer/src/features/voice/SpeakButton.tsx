// "Read aloud": speaks a text sentence by sentence as it streams in, and stops on a second tap. A
// long text (a Reader article) is asked for in pieces, the first one short, so speech starts at
// once. Hidden where this computer has no speech engine (nothing shown that cannot work).
import { useEffect, useRef, useState, type ReactElement } from 'react';
import { Icon } from '../../ui/icons';
import { useToast } from '../../ui/Toast';
import { useVoiceConfig } from './queries';
import { speak, type SpeechPlayer } from './speech-player';

/** What to say of a Markdown answer: its words, without the marks (links keep their text). */
export function plainText(markdown: string): string {
  return markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_#`>|~]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** `markdown`: the text is a chat answer (its marks are not read out); otherwise plain text. */
export function SpeakButton({ text, markdown = true, label = 'Read aloud' }: { text: string; markdown?: boolean; label?: string }): ReactElement | null {
  const voice = useVoiceConfig();
  const toast = useToast();
  const [player, setPlayer] = useState<SpeechPlayer | null>(null);
  const current = useRef<SpeechPlayer | null>(null);
  useEffect(() => () => current.current?.stop(), []);
  if (!voice.data?.tts) return null;
  const toggle = () => {
    if (player) {
      player.stop();
      return;
    }
    const p = speak(markdown ? plainText(text) : text, (message) => toast(message, { tone: 'error' }));
    current.current = p;
    setPlayer(p);
    void p.done.then(() => {
      current.current = null;
      setPlayer(null);
    });
  };
  return (
    <button type="button" className="btn btn--ghost btn--compact" onClick={toggle} aria-pressed={player !== null} data-testid="speak-button">
      <Icon name={player ? 'pause' : 'play'} size={18} />
      {player ? 'Stop reading' : label}
    </button>
  );
}
