// SearchForm — a search that asks an outside directory, so it runs when the member submits (Enter
// or the Search button), never on each letter: a SearchField and a Search button in a role=search
// form. `useSubmittedSearch` keeps what is typed and what was submitted; clearing the field clears
// the search.
//   const search = useSubmittedSearch();
//   <SearchForm id="shows-search" label="Search TV shows" placeholder="A show’s name" search={search} />
//   <Results q={search.q} />
import { useState, type FormEvent, type ReactElement } from 'react';
import { SearchField } from './SearchField';

export interface SubmittedSearch {
  typed: string;
  /** What was last submitted (trimmed); '' before the first search and after clearing. */
  q: string;
  onType(value: string): void;
  submit(e?: FormEvent): void;
}

export function useSubmittedSearch(): SubmittedSearch {
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  return {
    typed,
    q,
    onType: (v) => {
      setTyped(v);
      if (v === '') setQ('');
    },
    submit: (e) => {
      e?.preventDefault();
      setQ(typed.trim());
    },
  };
}

export function SearchForm({ id, label, placeholder, className, search }: { id: string; label: string; placeholder?: string; className?: string; search: SubmittedSearch }): ReactElement {
  return (
    <form className={className} role="search" onSubmit={search.submit}>
      <SearchField id={id} label={label} placeholder={placeholder} value={search.typed} onChange={search.onType} onSubmit={search.submit} />
      <button type="submit" className="btn btn--primary" disabled={!search.typed.trim()}>
        Search
      </button>
    </form>
  );
}
