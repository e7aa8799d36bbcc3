// The admin's form for the web lookup's search server (a SearXNG address), shown where a device
// says nothing was looked up because no search is set up. Saving checks the address on the server
// (a public address only) and then looks the device up.
import { useId, useState, type FormEvent, type ReactElement } from 'react';
import { errorMessage } from '../../api/client';
import { Spinner } from '../../ui/icons';
import { FormError } from '../../ui/StateViews';
import { useSetWebSearch } from './queries';

export function WebSearchForm({ onSaved }: { onSaved: () => void }): ReactElement {
  const [url, setUrl] = useState('');
  const save = useSetWebSearch();
  const id = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(url.trim() || null, { onSuccess: (view) => view.configured && onSaved() });
  };
  return (
    <form className="inv-websearch" onSubmit={submit} data-testid="web-search-form">
      <label htmlFor={id} className="field__label">
        Web search address
      </label>
      <p className="field__hint" id={`${id}-hint`}>
        The address of the household’s search server (SearXNG), for example https://search.example.org. Hearth uses it to find manuals, support pages and photos.
      </p>
      <div className="inv-websearch__row">
        <input id={id} className="input" type="url" inputMode="url" value={url} onChange={(e) => setUrl(e.target.value)} aria-describedby={`${id}-hint`} autoComplete="off" required />
        <button type="submit" className="btn btn--primary btn--compact" disabled={save.isPending || !url.trim()}>
          {save.isPending ? <Spinner size={18} /> : null}
          Save and look up
        </button>
      </div>
      <FormError message={save.error ? errorMessage(save.error) : null} />
    </form>
  );
}
