// The composer: a growing text box (Enter sends on a keyboard, Shift+Enter starts a new line; phones
// use the Send button), the model picker (only the models this member may use, hidden when there is
// one or no list), pictures for a model that can see them or, for one that cannot, the household's
// vision model to look at (checked for size first), Stop while an
// answer arrives, and the server's refusal (e.g. the runtime is down) with the words kept.
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent, type ReactElement } from 'react';
import type { ApiError } from '../../api/client';
import { FilePicker } from '../../ui/FilePicker';
import { formatBytes } from '../../ui/format';
import { Icon } from '../../ui/icons';
import { useDraft } from '../../ui/useDraft';
import { MAX_IMAGE_BYTES, MAX_IMAGES, MAX_MESSAGE_CHARS, useChatModels, type Conversation } from './queries';
import type { SendArgs } from './useChatStream';
import { TalkButton } from '../voice';
import { useVisionStatus } from '../vision';
import { fmt } from '../../ui/locale';

interface Picture {
  name: string;
  base64: string;
  preview: string;
}

export interface ComposerProps {
  userId: string;
  conversation: Conversation | undefined;
  streaming: boolean;
  /** Another chat's answer is arriving (one at a time). */
  otherBusy: boolean;
  refusal: ApiError | null;
  onDismissRefusal: () => void;
  onSend: (args: SendArgs, onSent: () => void) => Promise<void>;
  onStop: () => void;
}

const prefersKeyboard = () => window.matchMedia?.('(hover: hover) and (pointer: fine)').matches === true;

function refusalText(err: ApiError): string {
  if (err.code === 'model_runtime_unavailable')
    return 'The assistant is not running right now, so your message was not sent. It is still here: try again in a minute, or ask an admin to check that Ollama is running (Admin › Features).';
  if (err.code === 'model_not_allowed') return 'You may not use that model. Pick another one, or ask an admin.';
  return err.message;
}

function readPicture(file: File): Promise<Picture> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve({ name: file.name, preview: url, base64: url.slice(url.indexOf(',') + 1) });
    };
    reader.onerror = () => reject(new Error('That picture could not be read. Try another one.'));
    reader.readAsDataURL(file);
  });
}

export function Composer({ userId, conversation, streaming, otherBusy, refusal, onDismissRefusal, onSend, onStop }: ComposerProps): ReactElement {
  const [text, setText, clearText] = useDraft(userId, `chat.composer.${conversation?.id ?? 'new'}`);
  const models = useChatModels();
  const list = models.data?.models ?? [];
  const [model, setModel] = useState<string | null>(null);
  const chosen = model ?? conversation?.model ?? models.data?.chosen ?? list[0]?.name ?? null;
  // a chat model that cannot see hands pictures to the household's vision model (the server asks it)
  const visionReady = useVisionStatus().data?.model != null;
  const canSee = list.find((m) => m.name === chosen)?.capabilities.includes('vision') === true || visionReady;
  const [pictures, setPictures] = useState<Picture[]>([]);
  const [pictureError, setPictureError] = useState<string | null>(null);
  const [pickerKey, setPickerKey] = useState(0);
  const [sending, setSending] = useState(false);
  const box = useRef<HTMLTextAreaElement>(null);

  // the box grows with its text up to a third of the screen
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, window.innerHeight / 3)}px`;
  }, [text]);

  const addPicture = async (file: File | null) => {
    setPickerKey((k) => k + 1);
    if (!file) return;
    setPictureError(null);
    if (!file.type.startsWith('image/')) return setPictureError('That is not a picture. Choose a photo or an image file.');
    if (file.size > MAX_IMAGE_BYTES) return setPictureError(`That picture is too big (${formatBytes(file.size)}). Pictures up to ${formatBytes(MAX_IMAGE_BYTES)} can be sent.`);
    if (pictures.length >= MAX_IMAGES) return setPictureError(`Up to ${MAX_IMAGES} pictures fit in one message.`);
    try {
      const picture = await readPicture(file);
      setPictures((p) => [...p, picture]);
    } catch (err) {
      setPictureError((err as Error).message);
    }
  };

  const busy = streaming || otherBusy || sending;
  const trimmed = text.trim();
  const tooLong = trimmed.length > MAX_MESSAGE_CHARS;
  const submit = async (e?: FormEvent, spoken?: string) => {
    e?.preventDefault();
    const message = spoken ?? trimmed;
    if (busy || !message || message.length > MAX_MESSAGE_CHARS) return;
    setSending(true);
    const sent = canSee ? pictures : [];
    try {
      await onSend(
        {
          message,
          model: list.length > 1 && chosen ? chosen : undefined,
          images: sent.map((p) => p.base64),
          imagePreviews: sent.map((p) => p.preview),
        },
        () => {
          // a spoken message leaves what was being typed in the box
          if (spoken === undefined) clearText();
          setPictures([]);
          setSending(false);
        },
      );
    } finally {
      setSending(false);
    }
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing && prefersKeyboard()) {
      e.preventDefault();
      void submit();
    }
  };

  return (
    <form className="chat-composer" onSubmit={(e) => void submit(e)} aria-label="Write a message">
      {refusal ? (
        <div className="chat-composer__refusal" role="alert">
          <Icon name="warn" size={20} />
          <p>{refusalText(refusal)}</p>
          <button type="button" className="btn btn--ghost btn--icon" aria-label="Dismiss" onClick={onDismissRefusal}>
            <Icon name="close" size={20} />
          </button>
        </div>
      ) : null}
      {pictures.length && canSee ? (
        <ul className="chat-composer__pictures" aria-label="Pictures to send">
          {pictures.map((p, i) => (
            <li key={`${p.name}-${i}`} className="chat-composer__picture">
              <img src={p.preview} alt={p.name} />
              <button type="button" className="btn btn--icon btn--secondary" aria-label={`Remove ${p.name}`} onClick={() => setPictures((all) => all.filter((_, j) => j !== i))}>
                <Icon name="close" size={18} />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <label htmlFor="chat-message" className="visually-hidden">
        Your message
      </label>
      <textarea
        id="chat-message"
        ref={box}
        className="input chat-composer__box"
        rows={1}
        placeholder="Ask something…"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          if (refusal) onDismissRefusal();
        }}
        onKeyDown={onKeyDown}
        aria-invalid={tooLong || undefined}
        aria-describedby={tooLong ? 'chat-message-long' : undefined}
      />
      {tooLong ? (
        <p id="chat-message-long" className="field__error">
          This message is too long: keep it under {fmt().number(MAX_MESSAGE_CHARS)} characters.
        </p>
      ) : null}
      <div className="chat-composer__bar">
        {list.length > 1 ? (
          <label className="chat-composer__model">
            <span className="visually-hidden">Model</span>
            <select className="input" value={chosen ?? ''} onChange={(e) => setModel(e.target.value)} disabled={busy}>
              {list.map((m) => (
                <option key={m.name} value={m.name}>
                  {m.name}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        {canSee ? <FilePicker key={pickerKey} label="Add a picture" accept="image/*" disabled={busy} error={pictureError} onFile={(f) => void addPicture(f)} showChosen={false} testId="chat-picture-file" /> : null}
        <span className="chat-composer__spacer" />
        {streaming ? null : <TalkButton disabled={busy} onText={(said) => void submit(undefined, said)} />}
        {streaming ? (
          <button type="button" className="btn btn--secondary" onClick={onStop}>
            <Icon name="pause" size={20} />
            Stop
          </button>
        ) : (
          <button type="submit" className="btn btn--primary" disabled={busy || !trimmed || tooLong}>
            <Icon name="forward" size={20} />
            Send
          </button>
        )}
      </div>
    </form>
  );
}
