// The conversation drawer: New chat, a search over titles and text, then the member's own chats
// (pinned first, then each project's, then the rest, newest first), each with a menu to rename,
// pin, move to a project or delete; projects are made, renamed and deleted here too.
import { useState, type FormEvent, type ReactElement } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Dialog } from '../../ui/Dialog';
import { DialogActions } from '../../ui/DialogActions';
import { Icon } from '../../ui/icons';
import { OverflowMenu, type OverflowItem } from '../../ui/OverflowMenu';
import { ErrorState, LoadingState } from '../../ui/StateViews';
import { TextField } from '../../ui/TextField';
import {
  groupConversations,
  useConversations,
  useCreateProject,
  useDeleteConversation,
  useDeleteProject,
  usePatchConversation,
  useProjects,
  useRenameConversation,
  useRenameProject,
  type ConversationSummary,
  type Project,
} from './queries';

export interface ChatDrawerProps {
  currentId: string | undefined;
  /** An answer is arriving: the chat it belongs to cannot be deleted meanwhile. */
  busy: boolean;
  onNew: () => void;
  onOpen: () => void;
}

type Editing =
  | { kind: 'rename'; conversation: ConversationSummary }
  | { kind: 'delete'; conversation: ConversationSummary }
  | { kind: 'move'; conversation: ConversationSummary }
  | { kind: 'new-project' }
  | { kind: 'rename-project'; project: Project }
  | { kind: 'delete-project'; project: Project };

export function ChatDrawer({ currentId, busy, onNew, onOpen }: ChatDrawerProps): ReactElement {
  const [q, setQ] = useState('');
  const list = useConversations(q);
  const projects = useProjects();
  const patch = usePatchConversation();
  const [editing, setEditing] = useState<Editing | null>(null);
  const close = () => setEditing(null);
  const searching = q.trim() !== '';

  const menu = (c: ConversationSummary): OverflowItem[] => [
    { id: 'rename', label: 'Rename', icon: 'edit', onSelect: () => setEditing({ kind: 'rename', conversation: c }) },
    { id: 'pin', label: c.pinned ? 'Unpin' : 'Pin to the top', icon: 'bookmark', onSelect: () => patch.mutate({ id: c.id, patch: { pinned: !c.pinned } }) },
    { id: 'move', label: 'Move to a project', icon: 'folder', onSelect: () => setEditing({ kind: 'move', conversation: c }) },
    { id: 'delete', label: 'Delete', icon: 'trash', tone: 'danger', disabled: busy && c.id === currentId, onSelect: () => setEditing({ kind: 'delete', conversation: c }) },
  ];

  const row = (c: ConversationSummary) => (
    <li key={c.id} className={c.id === currentId ? 'chat-list__item chat-list__item--current' : 'chat-list__item'}>
      <Link to={`/chat/${c.id}`} className="chat-list__link" aria-current={c.id === currentId ? 'page' : undefined} onClick={onOpen} title={c.title}>
        <span className="chat-list__title">
          {c.pinned ? <Icon name="bookmark" size={16} label="Pinned" /> : null}
          {c.title}
        </span>
        {c.snippet ? <span className="chat-list__snippet">{c.snippet}</span> : null}
      </Link>
      <OverflowMenu label={`More actions for ${c.title}`} items={menu(c)} />
    </li>
  );

  let content: ReactElement;
  if (list.isPending) content = <LoadingState label="Loading your chats…" />;
  else if (list.error && !list.data) content = <ErrorState title="Your chats did not load" error={list.error} onRetry={() => void list.refetch()} />;
  else {
    const conversations = list.data ?? [];
    const { pinned, groups, loose } = groupConversations(conversations, projects.data);
    content = (
      <div className="chat-lists">
        {conversations.length === 0 ? <p className="muted chat-lists__empty">{searching ? 'No chat mentions that.' : 'Your chats will be listed here.'}</p> : null}
        {pinned.length ? (
          <section aria-label="Pinned">
            <h2 className="chat-lists__heading">Pinned</h2>
            <ul className="chat-list">{pinned.map(row)}</ul>
          </section>
        ) : null}
        {groups
          .filter((g) => !searching || g.conversations.length > 0)
          .map((g) => (
            <section key={g.project.id} aria-label={`Project ${g.project.name}`}>
              <div className="chat-lists__project">
                <h2 className="chat-lists__heading">
                  <Icon name="folder" size={16} /> {g.project.name}
                </h2>
                <OverflowMenu
                  label={`More actions for the project ${g.project.name}`}
                  items={[
                    { id: 'rename', label: 'Rename project', icon: 'edit', onSelect: () => setEditing({ kind: 'rename-project', project: g.project }) },
                    { id: 'delete', label: 'Delete project', icon: 'trash', tone: 'danger', onSelect: () => setEditing({ kind: 'delete-project', project: g.project }) },
                  ]}
                />
              </div>
              {g.conversations.length ? <ul className="chat-list">{g.conversations.map(row)}</ul> : <p className="muted chat-lists__empty">No chats in this project yet.</p>}
            </section>
          ))}
        {loose.length ? (
          <section aria-label="Chats">
            {pinned.length || groups.length ? <h2 className="chat-lists__heading">Chats</h2> : null}
            <ul className="chat-list">{loose.map(row)}</ul>
          </section>
        ) : null}
        {projects.error ? <p className="muted">Projects did not load. {errorMessage(projects.error)}</p> : null}
      </div>
    );
  }

  return (
    <div className="chat-drawer">
      <div className="chat-drawer__actions">
        <button type="button" className="btn btn--primary" onClick={onNew}>
          <Icon name="plus" size={20} />
          New chat
        </button>
        <button type="button" className="btn btn--ghost btn--compact" onClick={() => setEditing({ kind: 'new-project' })}>
          <Icon name="folder" size={20} />
          New project
        </button>
      </div>
      <div className="chat-drawer__search">
        <label className="visually-hidden" htmlFor="chat-search">
          Search your chats
        </label>
        <input id="chat-search" className="input" type="search" placeholder="Search your chats" value={q} maxLength={200} onChange={(e) => setQ(e.target.value)} />
      </div>
      {patch.error ? (
        <p className="form-error" role="alert">
          {errorMessage(patch.error)}
        </p>
      ) : null}
      {content}
      {editing?.kind === 'rename' ? <RenameChatDialog conversation={editing.conversation} onClose={close} /> : null}
      {editing?.kind === 'move' ? <MoveDialog conversation={editing.conversation} projects={projects.data ?? []} onClose={close} /> : null}
      {editing?.kind === 'delete' ? <DeleteChatDialog conversation={editing.conversation} onClose={close} onDeleted={editing.conversation.id === currentId ? onNew : undefined} /> : null}
      {editing?.kind === 'new-project' || editing?.kind === 'rename-project' ? <ProjectNameDialog project={editing.kind === 'rename-project' ? editing.project : null} onClose={close} /> : null}
      {editing?.kind === 'delete-project' ? <DeleteProjectDialog project={editing.project} onClose={close} /> : null}
    </div>
  );
}

function NameDialog({ title, label, initial, maxLength, actionLabel, onSave, onClose }: { title: string; label: string; initial: string; maxLength: number; actionLabel: string; onSave: (name: string) => Promise<unknown>; onClose: () => void }): ReactElement {
  const [name, setName] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    if (!name.trim()) return setError('Type a name first.');
    setBusy(true);
    setError(null);
    try {
      await onSave(name.trim());
      onClose();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open title={title} onClose={() => (busy ? undefined : onClose())}>
      <form onSubmit={(e) => void submit(e)}>
        <TextField label={label} value={name} maxLength={maxLength} autoFocus onChange={(e) => setName(e.target.value)} />
        <DialogActions busy={busy} error={error} onCancel={onClose} label={actionLabel} icon="check" />
      </form>
    </Dialog>
  );
}

function RenameChatDialog({ conversation, onClose }: { conversation: ConversationSummary; onClose: () => void }): ReactElement {
  const rename = useRenameConversation();
  return <NameDialog title="Rename this chat" label="Name" initial={conversation.title} maxLength={100} actionLabel="Save" onSave={(t) => rename.rename(conversation.id, t)} onClose={onClose} />;
}

function ProjectNameDialog({ project, onClose }: { project: Project | null; onClose: () => void }): ReactElement {
  const create = useCreateProject();
  const rename = useRenameProject();
  return (
    <NameDialog
      title={project ? 'Rename the project' : 'New project'}
      label="Project name"
      initial={project?.name ?? ''}
      maxLength={60}
      actionLabel={project ? 'Save' : 'Create'}
      onSave={(name) => (project ? rename.mutateAsync({ id: project.id, name }) : create.mutateAsync(name))}
      onClose={onClose}
    />
  );
}

function MoveDialog({ conversation, projects, onClose }: { conversation: ConversationSummary; projects: readonly Project[]; onClose: () => void }): ReactElement {
  const patch = usePatchConversation();
  const move = (projectId: string | null) => patch.mutateAsync({ id: conversation.id, patch: { projectId } }).then(onClose, () => undefined);
  return (
    <Dialog open title="Move to a project" description={conversation.title} onClose={onClose}>
      {projects.length === 0 ? <p className="muted">There are no projects yet. Make one with New project.</p> : null}
      <ul className="chat-move">
        {projects.map((p) => (
          <li key={p.id}>
            <button type="button" className="btn btn--secondary chat-move__option" aria-pressed={conversation.projectId === p.id} disabled={patch.isPending} onClick={() => void move(p.id)}>
              <Icon name="folder" size={20} />
              {p.name}
            </button>
          </li>
        ))}
        {conversation.projectId ? (
          <li>
            <button type="button" className="btn btn--ghost chat-move__option" disabled={patch.isPending} onClick={() => void move(null)}>
              Take it out of its project
            </button>
          </li>
        ) : null}
      </ul>
      {patch.error ? (
        <p className="form-error" role="alert">
          {errorMessage(patch.error)}
        </p>
      ) : null}
    </Dialog>
  );
}

function DeleteChatDialog({ conversation, onClose, onDeleted }: { conversation: ConversationSummary; onClose: () => void; onDeleted?: () => void }): ReactElement {
  const remove = useDeleteConversation();
  return (
    <ConfirmDialog
      open
      title={`Delete “${conversation.title}”?`}
      description="The whole chat goes, with its pictures. This cannot be undone."
      confirmLabel="Delete"
      onConfirm={async () => {
        await remove.mutateAsync(conversation.id);
        onClose();
        onDeleted?.();
      }}
      onClose={onClose}
    />
  );
}

function DeleteProjectDialog({ project, onClose }: { project: Project; onClose: () => void }): ReactElement {
  const remove = useDeleteProject();
  return (
    <ConfirmDialog
      open
      title={`Delete the project “${project.name}”?`}
      description="Its chats stay, outside any project."
      confirmLabel="Delete project"
      onConfirm={async () => {
        await remove.mutateAsync(project.id);
        onClose();
      }}
      onClose={onClose}
    />
  );
}
