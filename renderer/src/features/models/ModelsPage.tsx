// Admin: the AI models on this computer. Each installed model shows its size, what it can do in
// plain words, whether it runs well here and which household role it fills; the admin chooses the
// chat, search index and router models, downloads a model by name (through the download queue, with
// its progress here and on the Downloads page), deletes one (after confirming), and chooses which
// chat models each member may use. With the model runtime down the page says so and what to do,
// instead of showing empty lists.
import { useEffect, useMemo, useRef, useState, type ReactElement } from 'react';
import { useAction } from '../../api/useAction';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { formatBytes } from '../../ui/format';
import { Icon, Spinner } from '../../ui/icons';
import { PageHeader } from '../../ui/PageHeader';
import { EmptyState, ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { useToast } from '../../ui/Toast';
import { JOBS_KEY, useJobsStatus } from '../downloads';
import { MODELS_KEY, modelsApi, useModelAccess, useModels, useModelsCache } from './queries';
import type { EssentialRoleName, ModelView } from './types';
import './models.css';

import { ROLES, isActive, RoleSelect, ModelRow, PullSection, AccessSection } from './ModelsSections';

export function ModelsPage(): ReactElement {
  const models = useModels();
  const jobs = useJobsStatus();
  const modelsCache = useModelsCache();
  const toast = useToast();
  const { busy, error, act } = useAction({ invalidates: [MODELS_KEY, JOBS_KEY] });
  const [deleting, setDeleting] = useState<ModelView | null>(null);

  const data = models.data;
  const runtimeUp = data?.runtime.available === true;
  const access = useModelAccess(runtimeUp);

  // model downloads in the queue; when one leaves it (done or failed) the list is read again
  const pulling = useMemo(() => (jobs.data?.jobs ?? []).filter(isActive), [jobs.data]);
  const pullingKey = pulling.map((j) => j.id).sort().join(',');
  const lastPulling = useRef(pullingKey);
  useEffect(() => {
    const before = lastPulling.current.split(',').filter(Boolean);
    lastPulling.current = pullingKey;
    if (before.some((id) => !pullingKey.split(',').includes(id))) void modelsCache.refresh();
  }, [pullingKey, modelsCache]);
  const installedNames = new Set((data?.models ?? []).map((m) => m.name));
  const failedPulls = (jobs.data?.jobs ?? []).filter((j) => j.kind === 'runtime_model' && j.state === 'failed' && !installedNames.has(j.target));

  const choose = (role: EssentialRoleName, model: string, label: string) =>
    act(`select:${role}`, async () => {
      const updated = await modelsApi.select(role, model);
      modelsCache.set(updated);
      toast(`${model} is now the ${label.toLowerCase()}.`);
      return null;
    });

  return (
    <section className="page models-admin" aria-labelledby="models-title">
      <PageHeader
        titleId="models-title"
        title="Models"
        description="The AI models on this computer: what each can do, which ones the household uses, and who may use them."
      />

      {!data ? (
        models.error ? (
          <ErrorState title="Models did not load" error={models.error} onRetry={() => void models.refetch()} />
        ) : (
          <LoadingState label="Loading models…" />
        )
      ) : !data.runtime.available ? (
        <div className="card models-down" data-testid="models-runtime-down" role="status">
          <h2 className="models-down__title">
            <Icon name="warn" size={24} />
            The model runtime is not running
          </h2>
          <p>{data.runtime.unavailableReason}</p>
          {data.runtime.fix ? <p className="models-down__fix">{data.runtime.fix}</p> : null}
          <button type="button" className="btn btn--secondary" onClick={() => void models.refetch()} disabled={models.isFetching}>
            {models.isFetching ? <Spinner size={20} /> : <Icon name="refresh" size={20} />}
            Check again
          </button>
        </div>
      ) : (
        <>
          <section className="card models-section" aria-labelledby="models-roles-title">
            <h2 id="models-roles-title" className="models-section__title">
              Household choices
            </h2>
            <p className="muted">Which model does each job for everyone.</p>
            <div className="models-roles">
              {ROLES.map((r) => (
                <RoleSelect
                  key={r.role}
                  label={r.label}
                  hint={r.hint}
                  value={data.chosen[r.role]}
                  adopted={data.adopted.includes(r.role)}
                  options={data.models.filter((m) => m.capabilities.includes(r.needs)).map((m) => m.name)}
                  busy={busy === `select:${r.role}`}
                  disabled={busy !== null}
                  onChange={(model) => void choose(r.role, model, r.label)}
                />
              ))}
            </div>
            <FormError message={error?.key.startsWith('select:') ? error.message : null} />
          </section>

          <section className="card models-section" aria-labelledby="models-installed-title">
            <h2 id="models-installed-title" className="models-section__title">
              Installed models
            </h2>
            {data.models.length === 0 ? (
              <EmptyState title="No models yet">Download a model below, for example llama3.2:3b for chat.</EmptyState>
            ) : (
              <ul className="feature-list" aria-label="Installed models" data-testid="model-list">
                {data.models.map((m) => (
                  <ModelRow key={m.name} model={m} onDelete={() => setDeleting(m)} />
                ))}
              </ul>
            )}
          </section>

          <PullSection
            pulling={pulling}
            failed={failedPulls}
            busy={busy === 'pull'}
            error={error?.key === 'pull' ? error.message : null}
            onPull={(name) =>
              act('pull', async () => {
                const { alreadyQueued } = await modelsApi.pull(name);
                toast(alreadyQueued ? `${name} is already downloading.` : `${name} is downloading. Its progress shows here and on the Downloads page.`);
                return null;
              })
            }
          />

          <AccessSection
            members={access.data?.members}
            loadError={access.error}
            onRetry={() => void access.refetch()}
            chatModels={data.models.filter((m) => m.capabilities.includes('chat')).map((m) => m.name)}
          />
        </>
      )}

      <ConfirmDialog
        open={deleting !== null}
        title={deleting ? `Delete ${deleting.name}?` : 'Delete model?'}
        description={deleting ? `It is removed from this computer and frees ${deleting.sizeBytes ? formatBytes(deleting.sizeBytes) : 'its space'}. You can download it again later.` : undefined}
        confirmLabel="Delete"
        testId="model-delete-dialog"
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          const name = deleting!.name;
          await modelsApi.remove(name);
          setDeleting(null);
          await modelsCache.refresh();
          toast(`${name} was deleted.`);
        }}
      />
    </section>
  );
}
