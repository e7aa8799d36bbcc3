// For admins on the Listen page (issue 35): the household's Podcast Index key and secret. Pasted
// once, checked by Hearth with Podcast Index before it is kept (a refused pair is not saved, and the
// answer says why), never shown again: only whether it is set and the key's last 4 characters.
import { useState, type FormEvent, type ReactElement } from 'react';
import { errorMessage } from '../../api/client';
import { ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { TextField } from '../../ui/TextField';
import { useClearPodcastIndex, usePodcastIndexStatus, useSetPodcastIndex } from './queries';

export function PodcastIndexSetting(): ReactElement {
  const status = usePodcastIndexStatus();
  const save = useSetPodcastIndex();
  const clear = useClearPodcastIndex();
  const [key, setKey] = useState('');
  const [secret, setSecret] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    clear.reset();
    save.mutate(
      { key: key.trim(), secret: secret.trim() },
      {
        onSuccess: () => {
          setKey('');
          setSecret('');
        },
      },
    );
  };
  return (
    <section className="listen-section" aria-labelledby="listen-podcast-index">
      <h2 id="listen-podcast-index" className="listen-section__title">
        Podcast search with Podcast Index
      </h2>
      <p className="muted listen-section__lead">
        Members’ podcast searches go to Apple’s directory. With a Podcast Index key they go to Podcast Index instead, an open directory that also lists shows Apple does not: the words members type are
        sent there. A key and secret are free from api.podcastindex.org (sign up, and the secret is shown once). Hearth checks them with Podcast Index before keeping them.
      </p>
      {status.isPending ? (
        <LoadingState label="Reading the Podcast Index setting…" />
      ) : status.isError ? (
        <ErrorState title="The Podcast Index setting did not load" error={status.error} onRetry={() => void status.refetch()} />
      ) : status.data.configured ? (
        <div className="listen-opml">
          <span className="badge badge--ok">{status.data.keyEnding ? `Key ending ${status.data.keyEnding} saved` : 'Key saved'}</span>
          <button
            type="button"
            className="btn btn--secondary"
            disabled={clear.isPending}
            onClick={() => {
              save.reset();
              clear.mutate();
            }}
          >
            Remove the key
          </button>
        </div>
      ) : (
        <form className="listen-pi-form" onSubmit={submit}>
          <TextField label="Podcast Index API key" autoComplete="off" spellCheck={false} value={key} onChange={(e) => setKey(e.target.value)} />
          <TextField label="Podcast Index API secret" type="password" autoComplete="off" value={secret} onChange={(e) => setSecret(e.target.value)} />
          <button type="submit" className="btn btn--primary" disabled={!key.trim() || !secret.trim() || save.isPending}>
            {save.isPending ? 'Checking with Podcast Index…' : 'Check and save'}
          </button>
        </form>
      )}
      <FormError message={save.isError ? errorMessage(save.error) : clear.isError ? `The key was not removed. ${errorMessage(clear.error)}` : null} />
    </section>
  );
}
