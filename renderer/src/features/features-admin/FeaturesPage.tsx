// Admin: the feature catalog for this computer. Each item shows whether it is installed, its
// download size, the memory it needs and whether that fits; the admin installs (after confirming
// the size), uninstalls (after confirming) and switches installed features on or off. Installs go
// to the download queue; items with a job in the queue show as downloading until it finishes.
import { useEffect, useMemo, useRef, useState, type ReactElement } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import { formatBytes } from '../../ui/format';
import { EmptyState, ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { useToast } from '../../ui/Toast';
import { useJobsStatus } from '../downloads';
import { useFeaturePlan, useSetFeatureFlag } from './queries';
import { planItems, type CatalogItem } from './types';

import { INSTALL_POLL_MS, type Notice, isEssential, FeatureRow, InstallDialog, UninstallDialog } from './FeaturesSections';

export function FeaturesPage(): ReactElement {
  const plan = useFeaturePlan();
  const setFlag = useSetFeatureFlag();
  const jobs = useJobsStatus(INSTALL_POLL_MS);
  const toast = useToast();
  // a notice with a link to Downloads stays on the page; a switch turned on or off is a toast
  const [notice, setNotice] = useState<Notice>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [installing, setInstalling] = useState<CatalogItem | null>(null);
  const [uninstalling, setUninstalling] = useState<CatalogItem | null>(null);

  const items = useMemo(() => (plan.data ? planItems(plan.data) : []), [plan.data]);
  const byId = useMemo(() => new Map(items.map((i) => [i.id, i])), [items]);

  // artifacts with a job still in the queue; their items show as downloading
  const active = useMemo(
    () => new Set((jobs.data?.jobs ?? []).filter((j) => j.state === 'pending' || j.state === 'running').map((j) => j.itemId ?? '')),
    [jobs.data],
  );
  const activeKey = [...active].sort().join(',');
  const lastActive = useRef(activeKey);
  const { refetch: refetchPlan } = plan;
  useEffect(() => {
    // a job left the queue: what is installed may have changed
    const before = lastActive.current.split(',').filter(Boolean);
    lastActive.current = activeKey;
    if (before.some((id) => !active.has(id))) void refetchPlan();
  }, [activeKey, active, refetchPlan]);

  const isDownloading = (item: CatalogItem) => !item.installed && item.installs.some((a) => active.has(a.id));

  const toggle = async (item: CatalogItem, enabled: boolean) => {
    if (!plan.data) return;
    setActionError(null);
    setNotice(null);
    try {
      await setFlag.mutateAsync({ id: item.id, enabled });
      toast(`${item.name} is ${enabled ? 'on' : 'off'}.`);
    } catch (err) {
      setActionError(`${item.name} was not switched ${enabled ? 'on' : 'off'}. ${errorMessage(err)}`);
    }
  };

  const row = (item: CatalogItem) => (
    <FeatureRow
      key={item.id}
      item={item}
      byId={byId}
      downloading={isDownloading(item)}
      toggling={setFlag.isPending && setFlag.variables.id === item.id}
      onInstall={() => setInstalling(item)}
      onUninstall={() => setUninstalling(item)}
      onToggle={(on) => void toggle(item, on)}
    />
  );

  const data = plan.data;
  return (
    <section className="page features-admin" aria-labelledby="features-title">
      <div className="page__head">
        <div>
          <h1 id="features-title" className="page__title">
            Features
          </h1>
          <p className="muted">
            {data
              ? `Install what your household wants to use. This computer: ${data.budget.summary}${data.hardware.diskFreeBytes !== null ? `, ${formatBytes(data.hardware.diskFreeBytes)} free disk` : ''}.`
              : 'Install what your household wants to use.'}
          </p>
        </div>
      </div>

      <p className="notice" role="status" aria-live="polite" data-testid="features-notice">
        {notice ? (
          <>
            {notice.text}
            {notice.downloadsLink ? (
              <>
                {' '}
                <Link to="/downloads">Follow it on Downloads</Link>
              </>
            ) : null}
          </>
        ) : (
          ''
        )}
      </p>
      <FormError message={actionError} />

      {plan.isPending ? (
        <LoadingState label="Loading features…" />
      ) : plan.isError && !data ? (
        <ErrorState title="Features did not load" error={plan.error} onRetry={() => void plan.refetch()} />
      ) : !data || data.groups.length === 0 ? (
        <EmptyState title="No features">The feature catalog is empty.</EmptyState>
      ) : (
        data.groups.map((g) => (
          <section key={g.id} className="feature-group card" aria-labelledby={`group-${g.id}`}>
            <h2 id={`group-${g.id}`} className="feature-group__title">
              {g.name}
            </h2>
            <ul className="feature-list" aria-label={g.name}>
              {[g.base, ...g.items].map(row)}
            </ul>
            {g.categories.map((c) => (
              <div key={c.id} className="feature-category">
                <h3 className="feature-category__title">{c.name}</h3>
                <ul className="feature-list" aria-label={c.name}>
                  {c.items.map(row)}
                </ul>
              </div>
            ))}
          </section>
        ))
      )}

      <InstallDialog
        item={installing}
        byId={byId}
        freeBytes={data?.hardware.diskFreeBytes ?? null}
        onClose={() => setInstalling(null)}
        onInstalled={(item, queued) => {
          setInstalling(null);
          setActionError(null);
          if (queued > 0) setNotice({ text: `${item.name} is downloading.`, downloadsLink: true });
          else setNotice({ text: `${item.name} is ready: there was nothing left to download.` });
        }}
      />
      <UninstallDialog
        item={uninstalling}
        essential={uninstalling !== null && data !== undefined && isEssential(data, uninstalling.id)}
        onClose={() => setUninstalling(null)}
        onUninstalled={(item) => {
          setUninstalling(null);
          setActionError(null);
          setNotice({ text: `${item.name} was uninstalled.` });
        }}
      />
    </section>
  );
}
