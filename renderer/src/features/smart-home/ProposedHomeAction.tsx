// A guarded smart-home action chat proposed (issue 37): the chat tool never runs it, the answer shows
// this button and only the member pressing it asks for it (POST /api/home-assistant/entities/:id/action
// with confirm: true; the server checks the member's rights again, so a stale button is refused with
// its sentence). After it ran, the device's new state in words.
import { useState, type ReactElement } from 'react';
import { errorMessage } from '../../api/client';
import { FormError } from '../../ui/StateViews';
import { useEntityAction } from './queries';
import { stateWords } from './Tile';

export interface HomeActionProposal {
  entityId: string;
  service: string;
  data: Record<string, string | number | boolean>;
  label: string;
}

export function ProposedHomeAction({ action }: { action: HomeActionProposal }): ReactElement {
  const run = useEntityAction();
  const [error, setError] = useState<string | null>(null);
  const [after, setAfter] = useState<string | null>(null);
  const press = () => {
    setError(null);
    run.mutateAsync({ id: action.entityId, service: action.service, data: Object.keys(action.data).length ? action.data : undefined, confirm: true }).then(
      ({ entity }) => setAfter(entity ? `Done: ${entity.name} is now ${stateWords(entity).toLowerCase()}.` : 'Done.'),
      (err: unknown) => setError(errorMessage(err)),
    );
  };
  return (
    <div className="chat-proposal" data-testid="home-action-proposal">
      <p className="chat-proposal__text">Chat does not do this by itself. Press the button if you mean it:</p>
      {after ? (
        <p role="status">{after}</p>
      ) : (
        <button type="button" className="btn btn--primary" disabled={run.isPending} onClick={press}>
          {action.label}
        </button>
      )}
      <FormError message={error} />
    </div>
  );
}
