// Push-to-talk for chat: tap to speak, tap again to send what was said (recorded, then written down
// by POST /api/stt). Hidden where it cannot work: no transcription engine, or a page that is not
// secure (the Memos page says why and how to fix that).
import { useState, type ReactElement } from 'react';
import { errorMessage } from '../../api/client';
import { uploadFile } from '../../api/upload';
import { Icon, Spinner } from '../../ui/icons';
import { useToast } from '../../ui/Toast';
import { useVoiceConfig } from './queries';
import { canRecord, MIC_REFUSED, useRecorder } from './useRecorder';

export function TalkButton({ onText, disabled }: { onText: (text: string) => void; disabled: boolean }): ReactElement | null {
  const voice = useVoiceConfig();
  const mic = useRecorder();
  const toast = useToast();
  const [writing, setWriting] = useState(false);
  if (!voice.data?.stt || !canRecord()) return null;
  const toggle = async () => {
    if (!mic.recording) {
      await mic.start().catch(() => toast(MIC_REFUSED, { tone: 'error' }));
      return;
    }
    const file = await mic.stop();
    if (!file) return;
    setWriting(true);
    try {
      const { text } = await uploadFile<{ text: string }>('/api/stt', file);
      if (text.trim()) onText(text.trim());
      else toast('No words were heard. Try again a little closer to the microphone.', { tone: 'error' });
    } catch (err) {
      toast(errorMessage(err), { tone: 'error' });
    } finally {
      setWriting(false);
    }
  };
  return (
    <button type="button" className={`btn ${mic.recording ? 'btn--danger' : 'btn--secondary'}`} onClick={() => void toggle()} disabled={(disabled && !mic.recording) || writing} aria-pressed={mic.recording} data-testid="talk-button">
      {writing ? <Spinner size={20} /> : <Icon name={mic.recording ? 'forward' : 'chat'} size={20} />}
      {writing ? 'Writing it down…' : mic.recording ? 'Send what I said' : 'Talk'}
    </button>
  );
}
