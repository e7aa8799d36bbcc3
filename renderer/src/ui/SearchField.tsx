// SearchField — a search box with a magnifier and, once something is typed, a clear button (the
// browser's own clear button differs from one browser to the next, so the input is a text field
// with role searchbox). Escape clears it too; clearing gives the focus back to the field.
//   <SearchField id="inventory-search" label="Search the inventory" placeholder="Search by name"
//     value={query} onChange={setQuery} />
// Styled by its own CSS, imported here.
import type { ReactElement } from 'react';
import { IconButton } from './IconButton';
import { Icon } from './icons';
import './SearchField.css';

export interface SearchFieldProps {
  id: string;
  /** The field's accessible name (a visually hidden label). */
  label: string;
  placeholder?: string;
  value: string;
  /** Every change, clearing included (''). */
  onChange: (value: string) => void;
  /** Extra classes for the wrapper (a page's layout of it). */
  className?: string;
  /** Enter pressed: a search asked for on purpose (the map's online place search). */
  onSubmit?: () => void;
}

export function SearchField({ id, label, placeholder, value, onChange, className, onSubmit }: SearchFieldProps): ReactElement {
  return (
    <div className={className ? `search-field ${className}` : 'search-field'}>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <Icon name="search" size={20} className="search-field__icon" />
      <input
        id={id}
        className="input search-field__input"
        type="text"
        role="searchbox"
        placeholder={placeholder}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && value) {
            e.preventDefault();
            onChange('');
          }
          if (e.key === 'Enter' && onSubmit) {
            e.preventDefault();
            onSubmit();
          }
        }}
        enterKeyHint="search"
        autoComplete="off"
      />
      {value ? (
        <IconButton
          icon="close"
          label="Clear search"
          labelShown="never"
          tone="ghost"
          className="search-field__clear"
          onClick={() => {
            onChange('');
            document.getElementById(id)?.focus();
          }}
        />
      ) : null}
    </div>
  );
}
