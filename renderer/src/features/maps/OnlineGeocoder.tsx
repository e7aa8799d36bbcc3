// Admin › Maps: the online place search an admin may add (Photon or Nominatim, the household's own
// on the LAN or a public one within its rules). Members' searches ask it only when they press Enter;
// as they type, and in offline mode, only what Hearth has offline is searched.
import { useEffect, useState, type ReactElement } from 'react';
import { errorMessage } from '../../api/client';
import { FormError } from '../../ui/StateViews';
import { TextField } from '../../ui/TextField';
import { useGeocoderConfig, useRemoveGeocoder, useSaveGeocoder } from './queries';

export function OnlineGeocoder(): ReactElement {
  const config = useGeocoderConfig();
  const save = useSaveGeocoder();
  const remove = useRemoveGeocoder();
  const [provider, setProvider] = useState<'photon' | 'nominatim'>('photon');
  const [url, setUrl] = useState('');
  const [saved, setSaved] = useState<string | null>(null);
  useEffect(() => {
    if (config.data?.provider) setProvider(config.data.provider);
    if (config.data?.url) setUrl(config.data.url);
  }, [config.data]);
  const current = config.data?.provider ? `${config.data.provider === 'photon' ? 'Photon' : 'Nominatim'} at ${config.data.url}` : null;

  return (
    <section className="maps-household" aria-labelledby="maps-geocoder-title">
      <h2 id="maps-geocoder-title" className="maps-section-title">
        Online place search
      </h2>
      <p className="maps-note">
        Optional: a Photon or Nominatim server for house numbers and shops the maps do not name. It is asked only when someone presses Enter in the Map’s search, never as they type, and never in offline mode.
      </p>
      {config.isError ? <FormError message={errorMessage(config.error)} /> : null}
      <p className="maps-note" role="status">
        {config.isPending ? 'Loading…' : current ? `In use: ${current}.` : 'None set: place search uses only what is on this computer.'}
      </p>
      <form
        className="maps-geocoder"
        onSubmit={(e) => {
          e.preventDefault();
          setSaved(null);
          save.mutate({ provider, url: url.trim() }, { onSuccess: () => setSaved('Saved.') });
        }}
      >
        <div className="field">
          <label className="field__label" htmlFor="maps-geocoder-provider">
            Kind
          </label>
          <select id="maps-geocoder-provider" className="input" value={provider} onChange={(e) => setProvider(e.target.value as 'photon' | 'nominatim')}>
            <option value="photon">Photon</option>
            <option value="nominatim">Nominatim</option>
          </select>
        </div>
        <TextField label="Address" hint="For example http://192.168.1.20:2322" value={url} onChange={(e) => setUrl(e.target.value)} inputMode="url" autoComplete="off" required />
        <FormError message={save.isError ? errorMessage(save.error) : remove.isError ? errorMessage(remove.error) : null} />
        <div className="maps-actions">
          <button type="submit" className="btn btn--primary" disabled={save.isPending || url.trim() === ''}>
            Save
          </button>
          {current ? (
            <button
              type="button"
              className="btn btn--ghost"
              disabled={remove.isPending}
              onClick={() => {
                setSaved(null);
                remove.mutate(undefined, { onSuccess: () => setUrl('') });
              }}
            >
              Stop using it
            </button>
          ) : null}
          {saved ? (
            <span className="maps-note" role="status">
              {saved}
            </span>
          ) : null}
        </div>
      </form>
    </section>
  );
}
