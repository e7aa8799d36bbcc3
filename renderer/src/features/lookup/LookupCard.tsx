// The Lookup card of the Tools page (issue 38), self-contained: a barcode's product (typed, or
// scanned where the browser can read barcodes) from Hearth's copy or Open Food Facts, and a phone
// number's country, place, first carrier, kind of line and time zones, worked out on Hearth without
// the internet. Results and refusals are said in words.
import { useId, useState, type ReactElement } from 'react';
import { errorMessage } from '../../api/client';
import type { PhoneFacts } from '../../api/types';
import { FormError } from '../../ui/StateViews';
import { BarcodeScanButton } from './BarcodeScanButton';
import { useBarcodeLookup, usePhoneLookup } from './queries';
import './lookup.css';
import { fmt } from '../../ui/locale';

const LINE_WORDS: Record<PhoneFacts['lineType'], string> = {
  FIXED_LINE: 'Landline',
  MOBILE: 'Mobile',
  FIXED_LINE_OR_MOBILE: 'Landline or mobile (the plan does not tell them apart)',
  TOLL_FREE: 'Free to call',
  PREMIUM_RATE: 'Premium rate (costly to call)',
  SHARED_COST: 'Shared cost',
  VOIP: 'Internet telephone',
  PERSONAL_NUMBER: 'Personal number',
  PAGER: 'Pager',
  UAN: 'Company number',
  VOICEMAIL: 'Voicemail',
  UNKNOWN: 'Not known',
};

const REGIONS = ['', 'AT', 'AU', 'BE', 'CA', 'CH', 'DE', 'DK', 'ES', 'FI', 'FR', 'GB', 'IE', 'IT', 'NL', 'NO', 'NZ', 'PL', 'PT', 'SE', 'US'];
const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

function BarcodePart(): ReactElement {
  const lookup = useBarcodeLookup();
  const [code, setCode] = useState('');
  const id = useId();
  const hint = useId();
  const ask = (c: string) => {
    setCode(c);
    if (/^\d{8,14}$/.test(c)) lookup.mutate(c);
  };
  const p = lookup.data?.product;
  return (
    <div className="lookup__part">
      <h3 className="lookup__title">Barcode</h3>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          ask(code.trim());
        }}
      >
        <label htmlFor={id} className="field__label">
          Barcode digits
        </label>
        <div className="lookup__row">
          <input id={id} className="input" inputMode="numeric" maxLength={14} value={code} aria-describedby={hint} autoComplete="off" onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))} />
          <button type="submit" className="btn btn--primary" disabled={lookup.isPending || !/^\d{8,14}$/.test(code)}>
            Look up barcode
          </button>
          <BarcodeScanButton onCode={ask} disabled={lookup.isPending} />
        </div>
        <span id={hint} className="field__hint">
          8 to 14 digits. Hearth keeps every answer, so a code asked before answers without the internet.
        </span>
      </form>
      <div role="status" aria-live="polite">
        {lookup.isPending ? <p className="muted">Looking it up…</p> : null}
        {p ? (
          <div className="lookup__result" data-testid="barcode-result">
            {p.imageUrl ? <img src={p.imageUrl} alt="" className="lookup__image" referrerPolicy="no-referrer" loading="lazy" /> : null}
            <dl className="lookup__facts">
              <dt>Product</dt>
              <dd>{p.name ?? 'No name given'}</dd>
              {p.brand ? (
                <>
                  <dt>Brand</dt>
                  <dd>{p.brand}</dd>
                </>
              ) : null}
              {p.quantity ? (
                <>
                  <dt>Amount</dt>
                  <dd>{p.quantity}</dd>
                </>
              ) : null}
              {p.categories.length > 0 ? (
                <>
                  <dt>Kind</dt>
                  <dd>{p.categories.slice(-3).join(', ')}</dd>
                </>
              ) : null}
              <dt>From</dt>
              <dd>
                Open Food Facts, {fmt().date(p.fetchedAt)}
                {p.cached ? ' (Hearth’s copy)' : ''}
              </dd>
            </dl>
          </div>
        ) : null}
      </div>
      <FormError message={lookup.isError ? errorMessage(lookup.error) : null} />
    </div>
  );
}

function PhonePart(): ReactElement {
  const lookup = usePhoneLookup();
  const [number, setNumber] = useState('');
  const [region, setRegion] = useState('');
  const id = useId();
  const regionId = useId();
  const f = lookup.data?.phone;
  return (
    <div className="lookup__part">
      <h3 className="lookup__title">Phone number</h3>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (number.trim()) lookup.mutate({ number: number.trim(), region });
        }}
      >
        <label htmlFor={id} className="field__label">
          Number
        </label>
        <input id={id} className="input" type="tel" maxLength={40} value={number} autoComplete="off" placeholder="+41 44 668 18 00" onChange={(e) => setNumber(e.target.value)} />
        <label htmlFor={regionId} className="field__label">
          Country, for a number without +
        </label>
        <div className="lookup__row">
          <select id={regionId} className="input" value={region} onChange={(e) => setRegion(e.target.value)}>
            {REGIONS.map((r) => (
              <option key={r} value={r}>
                {r ? regionNames.of(r) : 'The number starts with +'}
              </option>
            ))}
          </select>
          <button type="submit" className="btn btn--primary" disabled={lookup.isPending || !number.trim()}>
            Look up number
          </button>
        </div>
      </form>
      <div role="status" aria-live="polite">
        {f ? (
          <dl className="lookup__facts" data-testid="phone-result">
            <dt>Number</dt>
            <dd>{f.international}</dd>
            {!f.valid ? (
              <>
                <dt>Note</dt>
                <dd>This number is not in use in any numbering plan Hearth knows.</dd>
              </>
            ) : null}
            <dt>Country</dt>
            <dd>{f.countryName ?? 'Not known'}</dd>
            {f.place ? (
              <>
                <dt>Place</dt>
                <dd>{f.place}</dd>
              </>
            ) : null}
            <dt>Line</dt>
            <dd>{LINE_WORDS[f.lineType]}</dd>
            {f.carrier ? (
              <>
                <dt>First carrier</dt>
                <dd>{f.carrier}</dd>
              </>
            ) : null}
            {f.timeZones.length > 0 ? (
              <>
                <dt>Time zone</dt>
                <dd>{f.timeZones.join(', ')}</dd>
              </>
            ) : null}
            <dt>For dialling</dt>
            <dd>{f.e164}</dd>
          </dl>
        ) : null}
      </div>
      <FormError message={lookup.isError ? errorMessage(lookup.error) : null} />
    </div>
  );
}

export function LookupCard(): ReactElement {
  return (
    <section className="card lookup" aria-labelledby="lookup-title">
      <h2 id="lookup-title" className="lookup__heading">
        Look up
      </h2>
      <p className="muted">What a barcode is, and where a phone number is from. Names of callers are not known to Hearth.</p>
      <div className="lookup__parts">
        <BarcodePart />
        <PhonePart />
      </div>
    </section>
  );
}
