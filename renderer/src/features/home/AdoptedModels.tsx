// On an admin's Home while Hearth is using models it found in Ollama rather than ones someone
// chose (they were pulled before Hearth was installed, or while setup ran without the runtime):
// which model does which job, "Keep these" (they become the household's choices and the card
// goes) and a link to Admin › Models to pick others. Nothing while it loads or cannot be read.
import { useMutation } from '@tanstack/react-query';
import { useState, type ReactElement } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import { FormError } from '../../ui/StateViews';
import { Icon, Spinner } from '../../ui/icons';
import { MODELS_KEY, modelsApi, useModels, type EssentialRoleName } from '../models';
import { CHECKLIST_KEY } from './queries';

const JOB: Record<EssentialRoleName, string> = { chat: 'for chat', embeddings: 'for search', router: 'as the quick helper', vision: 'to look at photos' };

export function AdoptedModels(): ReactElement | null {
  const res = useModels();
  const [error, setError] = useState<string | null>(null);
  const keep = useMutation({
    mutationFn: async (picks: Array<[EssentialRoleName, string]>) => {
      for (const [role, model] of picks) await modelsApi.select(role, model);
    },
    meta: { invalidates: [MODELS_KEY, CHECKLIST_KEY] },
  });
  const data = res.data;
  if (!data || !data.runtime.available || data.adopted.length === 0) return null;
  const picks = data.adopted.flatMap((role): Array<[EssentialRoleName, string]> => (data.chosen[role] ? [[role, data.chosen[role]]] : []));
  if (!picks.length) return null;
  return (
    <section className="card finish-setup" aria-labelledby="adopted-models-title" data-testid="adopted-models">
      <h2 id="adopted-models-title" className="finish-setup__title">
        AI models already on this computer
      </h2>
      <p className="finish-setup__intro">
        Ollama already had these, so Hearth uses them:{' '}
        {picks.map(([role, model], i) => (
          <span key={role}>
            {i > 0 ? (i === picks.length - 1 ? ' and ' : ', ') : ''}
            <strong>{model}</strong> {JOB[role]}
          </span>
        ))}
        .
      </p>
      <FormError message={error} />
      <div className="actions">
        <button
          type="button"
          className="btn btn--primary btn--compact"
          disabled={keep.isPending}
          onClick={() => {
            setError(null);
            keep.mutate(picks, { onError: (err) => setError(errorMessage(err)) });
          }}
        >
          {keep.isPending ? <Spinner size={18} /> : <Icon name="check" size={18} />}
          Keep these
        </button>
        <Link className="btn btn--secondary btn--compact" to="/admin/models">
          Choose others
        </Link>
      </div>
    </section>
  );
}
