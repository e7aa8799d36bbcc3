// The member's own language and units, on their profile: each follows the household until they
// choose, and "As the household" goes back to it (PUT /api/auth/me/locale, null clears).
import type { ReactElement } from 'react';
import { errorMessage } from '../../api/client';
import { useSession } from '../../app/session';
import { FormError } from '../../ui/StateViews';
import { useToast } from '../../ui/Toast';
import { languageChoices, languageName } from './choices';
import { useSaveMyLocale } from './queries';

export function MemberLocaleCard(): ReactElement | null {
  const { locale } = useSession();
  const toast = useToast();
  const save = useSaveMyLocale(() => toast('Your language and units are saved.'));
  if (!locale) return null;
  const own = locale.override;
  const household = { language: own.language ? null : locale.language, units: own.units ? null : locale.units };
  const change = (body: { language?: string | null; units?: 'metric' | 'imperial' | null }) => save.mutate(body);
  return (
    <section className="card profile__pin" aria-labelledby="profile-locale-title">
      <h2 id="profile-locale-title" className="profile__label">
        Language and units
      </h2>
      <p className="muted">How dates, numbers, the weather and distances are written for you. The time zone is the household’s.</p>
      <div className="field">
        <label htmlFor="profile-language" className="field__label">
          Language
        </label>
        <select id="profile-language" className="input" value={own.language ?? ''} disabled={save.isPending} onChange={(e) => change({ language: e.target.value || null })}>
          <option value="">As the household{household.language ? ` (${languageName(household.language)})` : ''}</option>
          {languageChoices(own.language ?? locale.language).map((tag) => (
            <option key={tag} value={tag}>
              {languageName(tag)} ({tag})
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="profile-units" className="field__label">
          Units
        </label>
        <select id="profile-units" className="input" value={own.units ?? ''} disabled={save.isPending} onChange={(e) => change({ units: (e.target.value || null) as 'metric' | 'imperial' | null })}>
          <option value="">As the household{household.units ? ` (${household.units === 'imperial' ? '°F, mph, mi' : '°C, km/h, km'})` : ''}</option>
          <option value="metric">Metric (°C, km/h, km)</option>
          <option value="imperial">Imperial (°F, mph, mi)</option>
        </select>
      </div>
      <FormError message={save.error ? errorMessage(save.error) : null} />
    </section>
  );
}
