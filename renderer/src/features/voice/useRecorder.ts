// The microphone as a recording: start() asks for it (browsers allow it only on a secure page),
// stop() hands back the recording as a file. Shared by the Memos page and chat's push-to-talk.
import { useRef, useState } from 'react';

export function canRecord(): boolean {
  return window.isSecureContext && typeof MediaRecorder !== 'undefined' && !!navigator.mediaDevices?.getUserMedia;
}

export const MIC_REFUSED = 'The microphone could not be opened. Allow this page to use the microphone in the browser’s settings, then try again.';

export function useRecorder() {
  const [recording, setRecording] = useState(false);
  const rec = useRef<{ recorder: MediaRecorder; done: Promise<File> } | null>(null);
  const start = async (): Promise<void> => {
    const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    const recorder = new MediaRecorder(stream);
    const parts: Blob[] = [];
    recorder.ondataavailable = (e) => parts.push(e.data);
    const done = new Promise<File>((resolve) => {
      recorder.onstop = () => {
        for (const t of stream.getTracks()) t.stop();
        const type = recorder.mimeType || 'audio/webm';
        resolve(new File(parts, `recording.${type.includes('mp4') ? 'm4a' : type.includes('ogg') ? 'ogg' : 'webm'}`, { type }));
      };
    });
    recorder.start();
    rec.current = { recorder, done };
    setRecording(true);
  };
  const stop = async (): Promise<File | null> => {
    const r = rec.current;
    rec.current = null;
    setRecording(false);
    if (!r) return null;
    r.recorder.stop();
    return r.done;
  };
  return { recording, start, stop };
}
