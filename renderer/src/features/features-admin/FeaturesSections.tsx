// Sections of FeaturesPage.tsx (FeaturesPage), each drawn by the page.
import { useState, type ReactElement } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import { Dialog } from '../../ui/Dialog';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { formatBytes } from '../../ui/format';
import { Icon, Spinner } from '../../ui/icons';
import { FormError } from '../../ui/StateViews';
import { NotReadyNote } from '../apps';
import { formatMemory, itemSizeText, measuredSpeedText, SLOW_NOTE } from './item-text';
import { useInstallFeature, useUninstallFeature } from './queries';
import { withRequirements, type CatalogItem, type FeaturePlan } from './types';


/** How often the page looks at the queue while something is installing. */
export const INSTALL_POLL_MS = 3_000;

export type Notice = { text: string; downloadsLink?: boolean } | null;

export function isEssential(plan: FeaturePlan, id: string): boolean {
  return [plan.essentials.chat.id, plan.essentials.embeddings.id, plan.essentials.router.id].includes(id);
}

/** What installing this item downloads: itself and what it needs that is not installed yet. */
export function installSet(item: CatalogItem, byId: ReadonlyMap<string, CatalogItem>): CatalogItem[] {
  return [...withRequirements([item.id], byId)].map((id) => byId.get(id)).filter((i): i is CatalogItem => Boolean(i && !i.installed));
}

export function FeatureRow({
  item,
  byId,
  downloading,
  toggling,
  onInstall,
  onUninstall,
  onToggle,
}: {
  item: CatalogItem;
  byId: ReadonlyMap<string, CatalogItem>;
  downloading: boolean;
  toggling: boolean;
  onInstall: () => void;
  onUninstall: () => void;
  onToggle: (on: boolean) => void;
}): ReactElement {
  const needs = item.requires.map((r) => byId.get(r)?.name ?? r);
  const descId = `feature-${item.id}-desc`;
  const reasonId = `feature-${item.id}-reason`;
  return (
    <li className="feature" data-testid={`feature-${item.id}`}>
      <div className="feature__main">
        <div className="feature__head">
          <span className="feature__name">{item.name}</span>
          <StateBadge item={item} downloading={downloading} />
        </div>
        <p id={descId} className="feature__desc">
          {item.description}
        </p>
        {item.id === CHAT_ITEM && item.available ? <p className="feature__needs muted">Summarize and Ask in the Reader use it.</p> : null}
        {/* an item that is downloading gets there by itself; anything else says why it cannot run */}
        {downloading ? null : <NotReadyNote availability={item} id={reasonId} forAdmin />}
        <p className="feature__size muted">{itemSizeText(item)}</p>
        {measuredSpeedText(item.measuredSpeed) ? (
          <p className="feature__speed muted" data-testid={`speed-${item.id}`}>
            {measuredSpeedText(item.measuredSpeed)}
          </p>
        ) : null}
        {!item.fits && !item.measuredSpeed ? (
          <p className="fit-note">
            <Icon name="warn" size={18} />
            {SLOW_NOTE}
          </p>
        ) : null}
        {item.advanced ? <p className="feature__advanced muted">{item.advanced}</p> : null}
        {needs.length ? <p className="feature__needs muted">Needs {needs.join(' and ')}.</p> : null}
      </div>
      <div className="feature__actions">
        {item.installed ? (
          <>
            {/* no switch for what cannot run: "Off" would read as a choice, not a missing piece */}
            {item.available ? (
              <label className="switch">
                <input
                  type="checkbox"
                  role="switch"
                  className="switch__input"
                  checked={item.enabled}
                  disabled={toggling}
                  aria-label={`Use ${item.name}`}
                  aria-describedby={descId}
                  onChange={(e) => onToggle(e.target.checked)}
                />
                <span className="switch__track" aria-hidden="true" />
                <span className="switch__text" aria-hidden="true">
                  {item.enabled ? 'On' : 'Off'}
                </span>
              </label>
            ) : null}
            {item.installs.length > 0 ? (
              <button type="button" className="btn btn--danger-ghost btn--compact" aria-label={`Uninstall ${item.name}`} onClick={onUninstall}>
                <Icon name="trash" size={20} />
                <span className="btn__label">Uninstall</span>
              </button>
            ) : null}
          </>
        ) : downloading ? (
          <Link to="/downloads" className="btn btn--secondary btn--compact" aria-label={`${item.name} is downloading: see Downloads`}>
            <Spinner size={20} />
            <span className="btn__label">See progress</span>
          </Link>
        ) : (
          <button
            type="button"
            className="btn btn--primary btn--compact"
            aria-label={`Install ${item.name}`}
            aria-describedby={item.available ? undefined : reasonId}
            disabled={!item.available}
            onClick={onInstall}
          >
            <Icon name="download" size={20} />
            <span className="btn__label">Install</span>
          </button>
        )}
      </div>
    </li>
  );
}

/** The item that stands for chat itself (it installs nothing: the chat models below do). */
export const CHAT_ITEM = 'chat-base';

export function StateBadge({ item, downloading }: { item: CatalogItem; downloading: boolean }): ReactElement {
  if (downloading && !item.installed) return <span className="badge badge--info">Downloading</span>;
  if (!item.available && (item.installed || item.installs.length === 0)) return <span className="badge badge--warn">Not ready</span>;
  if (item.installs.length === 0) return <span className="badge badge--ok">Ready</span>;
  return item.installed ? <span className="badge badge--ok">Installed</span> : <span className="badge">Not installed</span>;
}

export function InstallDialog({
  item,
  byId,
  freeBytes,
  onClose,
  onInstalled,
}: {
  item: CatalogItem | null;
  byId: ReadonlyMap<string, CatalogItem>;
  freeBytes: number | null;
  onClose: () => void;
  onInstalled: (item: CatalogItem, queued: number) => void;
}): ReactElement {
  const installFeature = useInstallFeature();
  const busy = installFeature.isPending;
  const [error, setError] = useState<string | null>(null);
  const set = item ? installSet(item, byId) : [];
  const extra = set.filter((i) => i.id !== item?.id);
  const total = set.reduce((n, i) => n + i.diskBytes, 0);

  const close = () => {
    if (busy) return;
    setError(null);
    onClose();
  };

  const install = async () => {
    if (!item) return;
    setError(null);
    try {
      const jobs = await installFeature.mutateAsync(item.id);
      onInstalled(item, jobs.length);
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  return (
    <Dialog
      open={item !== null}
      title={item ? `Install ${item.name}?` : 'Install'}
      onClose={close}
      testId="install-dialog"
      description={item ? `${item.description}` : undefined}
    >
      {item ? (
        <div className="install-facts">
          <p data-testid="install-size">
            This downloads <strong>{formatBytes(total)}</strong>
            {extra.length ? `, including ${extra.map((i) => i.name).join(' and ')}, which it needs` : ''}
            {freeBytes !== null ? ` (${formatBytes(freeBytes)} free on this computer)` : ''}.
          </p>
          {item.ramBytes > 0 ? <p>While in use it needs about {formatMemory(item.ramBytes)} of memory.</p> : null}
          {!item.fits ? (
            <p className="banner banner--warn">
              <Icon name="warn" size={22} />
              <span>{SLOW_NOTE}: it needs more memory than Hearth can give it here.</span>
            </p>
          ) : null}
          <p className="muted">The download runs in the background; you can close this page.</p>
        </div>
      ) : null}
      <FormError message={error} />
      <div className="actions">
        <button type="button" className="btn btn--secondary" onClick={close} disabled={busy}>
          Not now
        </button>
        <button type="button" className="btn btn--primary" onClick={() => void install()} disabled={busy}>
          {busy ? <Spinner size={20} /> : <Icon name="download" size={20} />}
          Install
        </button>
      </div>
    </Dialog>
  );
}

export function UninstallDialog({
  item,
  essential,
  onClose,
  onUninstalled,
}: {
  item: CatalogItem | null;
  essential: boolean;
  onClose: () => void;
  onUninstalled: (item: CatalogItem) => void;
}): ReactElement {
  const uninstall = useUninstallFeature();
  return (
    <ConfirmDialog
      open={item !== null}
      title={item ? `Uninstall ${item.name}?` : 'Uninstall'}
      testId="uninstall-dialog"
      description={
        <>
          Its files are deleted from this computer (anything another feature still uses is kept). You can install it again later.
          {essential ? ' Hearth counts it as essential: if it is missing when Hearth next starts, Hearth downloads it again.' : ''}
        </>
      }
      confirmLabel="Uninstall"
      onClose={onClose}
      onConfirm={async () => {
        if (!item) return;
        await uninstall.mutateAsync(item.id);
        onUninstalled(item);
      }}
    />
  );
}
