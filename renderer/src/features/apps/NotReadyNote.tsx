// Why something the household has cannot be used right now, and what to do about it: the server's
// `unavailableReason` and `fix` (GET /api/tools, GET /api/admin/features). The fix is for admins;
// a member is told an admin can set it up.
import type { ReactElement } from 'react';
import type { Availability } from '../../../../server/modules/tools/schema.js';
import { Icon } from '../../ui/icons';
import './apps.css';

export function NotReadyNote({ availability, id, forAdmin }: { availability: Availability; id?: string; forAdmin: boolean }): ReactElement | null {
  if (availability.available) return null;
  const fix = forAdmin ? availability.fix : 'An admin can set it up.';
  return (
    <div className="not-ready" id={id} data-testid="not-ready">
      <p className="not-ready__reason">
        <Icon name="warn" size={18} />
        <span>{availability.unavailableReason ?? 'It cannot be used right now.'}</span>
      </p>
      {fix ? <p className="not-ready__fix">{fix}</p> : null}
    </div>
  );
}
