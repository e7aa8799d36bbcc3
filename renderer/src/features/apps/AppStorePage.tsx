// The App Store: the household's tools by category, then the built-in apps (always there, cannot be
// removed). Action by state (spec): installed App -> Open; installed Extension -> an inert
// "Installed" pill; not installed + admin -> Get (where it reaches outside the house, or "Fully
// local", then confirm); not installed + member -> Request (optional message to the admins).
// Admins can also remove an installed tool: it leaves everyone's navigation and home screen.
// Installed is not the same as usable: a tool that cannot work yet (no archive, no model runtime)
// says "Not ready yet" with why and, for admins, the fix; members do not see such an extension. There are
// no on/off switches: Get keeps the spec's disclosure of where an app reaches before it is on.
import { useId, useState, type ReactElement } from 'react';
import { Link } from 'react-router';
import { ApiError, errorMessage } from '../../api/client';
import { canOpen, useShellPages } from '../../app/shell-pages';
import { useUser } from '../../app/session';
import { Dialog } from '../../ui/Dialog';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Icon } from '../../ui/icons';
import { ErrorState, LoadingState } from '../../ui/StateViews';
import { DialogActions } from '../../ui/DialogActions';
import { useToast } from '../../ui/Toast';
import { NotReadyNote } from './NotReadyNote';
import { builtInEntries, groupEntries, type StoreEntry } from './store-entries';
import { ToolIcon } from './ToolIcon';
import { useRequestTool, useSetToolEnabled } from './queries';
import { useTools, type Tool } from './tools';
import './apps.css';

/** The server's cap on a request message (MAX_REQUEST_MESSAGE_LENGTH in the tools schema). */
const MAX_REQUEST_MESSAGE_LENGTH = 500;

const SOURCE_TYPES: Record<Tool['dataSources'][number]['type'], string> = {
  api: 'Online service',
  rss: 'News feed',
  web: 'Websites',
  cdn: 'Download server',
};

export function AppStorePage(): ReactElement {
  const user = useUser();
  const pages = useShellPages();
  const isAdmin = user.role === 'admin';
  const { tools, status, error, reload } = useTools();
  const [getting, setGetting] = useState<Tool | null>(null);
  const [removing, setRemoving] = useState<Tool | null>(null);
  const [requesting, setRequesting] = useState<Tool | null>(null);
  const [requested, setRequested] = useState<ReadonlySet<string>>(new Set());
  const toast = useToast();

  const builtIns = builtInEntries(
    pages.filter((p) => canOpen(p, user.role)),
    'apps',
  );
  // a member sees what they can use or ask for: not a chat extension that is on but cannot work
  // yet (an app stays: its page is in their navigation and says what it is waiting for)
  const listed = (tools ?? []).filter((t) => isAdmin || !t.enabled || t.available || !t.offline);
  const groups = groupEntries(listed, builtIns);
  const toolGroups = groups.filter((g) => g.entries.some((e) => !e.builtIn));
  const builtInGroup = groups.find((g) => g.entries.some((e) => e.builtIn));

  return (
    <section className="page app-store" aria-labelledby="store-title">
      <div className="page__head">
        <div>
          <h1 id="store-title" className="page__title">
            App Store
          </h1>
          <p className="muted">
            {isAdmin ? 'Get apps for the whole household, or remove the ones you do not use.' : 'The apps you can use. Ask an admin for one you would like.'}
          </p>
        </div>
      </div>

      {!tools && status === 'loading' ? <LoadingState label="Loading apps…" /> : null}
      {!tools && status === 'error' ? <ErrorState title="Apps did not load" error={error} onRetry={reload} /> : null}
      {tools && toolGroups.length === 0 ? <p className="muted">No other apps are available in this version of Hearth.</p> : null}

      {[...toolGroups, ...(builtInGroup ? [builtInGroup] : [])].map((g) => (
        <StoreGroup key={g.category} title={g.category}>
          {g.entries.map((e) => (
            <StoreItem key={e.id} entry={e} isAdmin={isAdmin}>
              <EntryActions
                entry={e}
                isAdmin={isAdmin}
                requested={requested.has(e.id)}
                onGet={() => setGetting(e.tool)}
                onRemove={() => setRemoving(e.tool)}
                onRequest={() => setRequesting(e.tool)}
              />
            </StoreItem>
          ))}
        </StoreGroup>
      ))}

      {getting ? (
        <GetDialog
          tool={getting}
          onClose={() => setGetting(null)}
          onDone={(t) => {
            toast(`${t.name} is on.`);
            setGetting(null);
          }}
        />
      ) : null}
      {removing ? (
        <RemoveDialog
          tool={removing}
          onClose={() => setRemoving(null)}
          onDone={(t) => {
            toast(`${t.name} was removed. Turn it back on any time; nothing in it was deleted.`);
            setRemoving(null);
          }}
        />
      ) : null}
      {requesting ? (
        <RequestDialog
          tool={requesting}
          onClose={() => setRequesting(null)}
          onDone={(outcome) => {
            const name = requesting.name;
            if (outcome === 'installed') {
              reload();
              toast(`${name} is already installed.`);
            } else {
              setRequested((s) => new Set(s).add(requesting.id));
              toast(outcome === 'duplicate' ? `You already asked for ${name}. The admins have your request.` : `Your request for ${name} was sent to the admins.`);
            }
            setRequesting(null);
          }}
        />
      ) : null}
    </section>
  );
}

function StoreGroup({ title, children }: { title: string; children: ReactElement[] }): ReactElement {
  const id = useId();
  return (
    <section className="store-group" aria-labelledby={id}>
      <h2 id={id} className="store-group__title">
        {title}
      </h2>
      <ul className="store-list">{children}</ul>
    </section>
  );
}

function StoreItem({ entry: e, isAdmin, children }: { entry: StoreEntry; isAdmin: boolean; children: ReactElement }): ReactElement {
  return (
    <li className="store-item" data-testid={`store-item-${e.id}`}>
      <span className="store-item__icon" aria-hidden="true">
        {'toolId' in e.icon ? <ToolIcon toolId={e.icon.toolId} icon={e.icon.emoji} /> : <Icon name={e.icon.icon} />}
      </span>
      <div className="store-item__body">
        <h3 className="store-item__name">
          {e.name}
          {e.builtIn ? <span className="badge">Built in</span> : <span className="badge">{e.kind === 'app' ? 'App' : 'Chat extension'}</span>}
          {e.tool && e.tool.dataSources.length === 0 ? <span className="badge badge--ok">Fully local</span> : null}
        </h3>
        {e.description ? <p className="store-item__desc muted">{e.description}</p> : null}
        {e.tool && e.enabled ? <NotReadyNote availability={e.tool} forAdmin={isAdmin} /> : null}
      </div>
      <div className="store-item__actions">{children}</div>
    </li>
  );
}

function EntryActions({
  entry: e,
  isAdmin,
  requested,
  onGet,
  onRemove,
  onRequest,
}: {
  entry: StoreEntry;
  isAdmin: boolean;
  requested: boolean;
  onGet: () => void;
  onRemove: () => void;
  onRequest: () => void;
}): ReactElement {
  if (e.enabled) {
    return (
      <>
        {e.route ? (
          <Link className="btn btn--secondary btn--compact" to={e.route} aria-label={`Open ${e.name}`}>
            Open
          </Link>
        ) : e.tool && !e.tool.available ? (
          <span className="badge badge--warn store-item__pill" data-testid="not-ready-pill">
            Not ready yet
          </span>
        ) : (
          <span className="badge badge--ok store-item__pill" data-testid="installed-pill">
            <Icon name="check" size={16} /> Installed
          </span>
        )}
        {isAdmin && !e.builtIn ? (
          <button type="button" className="btn btn--danger-ghost btn--compact btn--icon" aria-label={`Remove ${e.name}`} onClick={onRemove}>
            <Icon name="trash" size={20} />
          </button>
        ) : null}
      </>
    );
  }
  if (isAdmin) {
    return (
      <button type="button" className="btn btn--primary btn--compact" aria-label={`Get ${e.name}`} onClick={onGet}>
        Get
      </button>
    );
  }
  return (
    <button type="button" className="btn btn--secondary btn--compact" aria-label={requested ? `${e.name} requested` : `Request ${e.name}`} onClick={onRequest} disabled={requested}>
      {requested ? 'Requested' : 'Request'}
    </button>
  );
}

function DataSources({ tool }: { tool: Tool }): ReactElement {
  if (tool.dataSources.length === 0) {
    return (
      <div className="disclosure disclosure--local" data-testid="fully-local">
        <p className="disclosure__title">
          <Icon name="check" size={20} /> Fully local
        </p>
        <p className="disclosure__text">{tool.name} never reaches outside your home network. Everything it does stays on this computer.</p>
      </div>
    );
  }
  return (
    <div className="disclosure" data-testid="data-sources">
      <p className="disclosure__title">{tool.name} reaches outside your home:</p>
      <ul className="disclosure__list">
        {tool.dataSources.map((d) => (
          <li key={`${d.type}:${d.domain}`}>
            <strong>{d.domain}</strong> <span className="muted">({SOURCE_TYPES[d.type] ?? d.type})</span>
            <br />
            {d.purpose}
          </li>
        ))}
      </ul>
    </div>
  );
}

function GetDialog({ tool, onClose, onDone }: { tool: Tool; onClose: () => void; onDone: (t: Tool) => void }): ReactElement {
  const setEnabled = useSetToolEnabled();
  const busy = setEnabled.isPending;
  const error = setEnabled.isError ? errorMessage(setEnabled.error) : null;
  const run = () => setEnabled.mutateAsync({ toolId: tool.id, enabled: true }).then(onDone, () => undefined); // the failure is in setEnabled.error
  return (
    <Dialog open title={`Get ${tool.name}`} onClose={() => !busy && onClose()} testId="get-dialog" description={tool.description}>
      <DataSources tool={tool} />
      <DialogActions busy={busy} error={error} onCancel={onClose} label="Install for everyone" onConfirm={() => void run()} />
    </Dialog>
  );
}

function RemoveDialog({ tool, onClose, onDone }: { tool: Tool; onClose: () => void; onDone: (t: Tool) => void }): ReactElement {
  const setEnabled = useSetToolEnabled();
  return (
    <ConfirmDialog
      open
      title={`Remove ${tool.name}?`}
      testId="remove-tool-dialog"
      description={`${tool.name} disappears from everyone's navigation and home screen. Nothing saved in it is deleted, and you can get it again later.`}
      cancelLabel="Cancel"
      confirmLabel="Remove"
      onClose={onClose}
      onConfirm={async () => {
        onDone(await setEnabled.mutateAsync({ toolId: tool.id, enabled: false }));
      }}
    />
  );
}

function RequestDialog({
  tool,
  onClose,
  onDone,
}: {
  tool: Tool;
  onClose: () => void;
  onDone: (outcome: 'sent' | 'duplicate' | 'installed') => void;
}): ReactElement {
  const [message, setMessage] = useState('');
  const request = useRequestTool();
  const busy = request.isPending;
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const send = async () => {
    setError(null);
    try {
      const r = await request.mutateAsync({
        toolId: tool.id,
        toolName: tool.name,
        ...(message.trim() ? { message: message.trim() } : {}),
      });
      onDone(r.duplicate ? 'duplicate' : 'sent');
    } catch (err) {
      if (err instanceof ApiError && err.status === 409 && err.code === 'already_installed') {
        onDone('installed');
        return;
      }
      setError(errorMessage(err));
    }
  };
  return (
    <Dialog open title={`Ask for ${tool.name}`} onClose={() => !busy && onClose()} testId="request-dialog" description="The admins get your request in their notifications.">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <div className="field">
          <label className="field__label" htmlFor={`${id}-msg`}>
            Message (optional)
          </label>
          <span id={`${id}-hint`} className="field__hint">
            For example, what you would use it for.
          </span>
          <textarea
            id={`${id}-msg`}
            className="input textarea"
            rows={3}
            maxLength={MAX_REQUEST_MESSAGE_LENGTH}
            aria-describedby={`${id}-hint`}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
          />
        </div>
        <DialogActions busy={busy} error={error} onCancel={onClose} label="Send request" />
      </form>
    </Dialog>
  );
}
