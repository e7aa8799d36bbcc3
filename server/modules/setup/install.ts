// POST /api/setup/download: installs the essentials (chat model, embeddings, router) through the
// durable queue while the wizard watches, then hands the chosen extras to the queue. The jobs are
// the queue's own, so a closed tab or a restart loses nothing; reopening the stream re-attaches.
import type { Actor } from '../../actor.js';
import { BadRequestError } from '../../errors.js';
import type { AppSettingsStore } from '../../db/kv.js';
import type { HardwareProbe } from '../../platform/hardware.js';
import type { DownloadsService } from '../downloads/service.js';
import type { Catalog } from '../features/catalog.js';
import { SETTING_CHOSEN_MODELS, type SetupDownloadBody } from '../features/schema.js';
import type { FeaturesService } from '../features/service.js';

export interface InstallEvents {
  send(event: 'plan' | 'progress' | 'done' | 'error', data: unknown): void;
  signal: AbortSignal;
}

const POLL_MS = 500;

export async function installEssentials(
  deps: { features: FeaturesService; downloads: DownloadsService; catalog: Catalog; settings: AppSettingsStore; hardware: HardwareProbe },
  actor: Actor,
  body: SetupDownloadBody,
  /** Opens the event stream; called once the jobs are queued, so refusals are plain HTTP errors. */
  open: () => InstallEvents,
): Promise<void> {
  const { catalog } = deps;
  for (const id of body.extras) if (!catalog.item(id)) throw new BadRequestError(`There is no feature called ${id}.`);
  const chatItem = body.chatItem ? catalog.chatModels().find((i) => i.id === body.chatItem) : deps.features.fitChat(await deps.hardware()).item;
  if (!chatItem) throw new BadRequestError(`${body.chatItem} is not a chat model.`);

  const roles = [
    { key: 'chat', item: chatItem },
    { key: 'embeddings', item: catalog.item(catalog.data.essentials.embeddings)! },
    { key: 'router', item: catalog.item(catalog.data.essentials.router)! },
  ] as const;
  // the chosen models become the boot checks' "essentials"
  for (const r of roles) {
    const model = r.item.installs.map((a) => catalog.artifact(a.id)!).find((a) => a.kind === 'runtime_model');
    if (model) await deps.settings.set(SETTING_CHOSEN_MODELS[r.key], model.target);
  }

  const jobs = await deps.features.enqueueItems(actor, roles.map((r) => r.item.id));
  const watched = new Map(jobs.map((j) => [j.id, j.label]));
  const out = open();
  out.send('plan', { essentials: roles.map((r) => ({ key: r.key, itemId: r.item.id, name: r.item.name })), jobs: jobs.map((j) => ({ id: j.id, label: j.label })) });

  for (;;) {
    if (out.signal.aborted) return;
    const status = await deps.downloads.status();
    const mine = status.jobs.filter((j) => watched.has(j.id));
    for (const j of mine) {
      out.send('progress', { jobId: j.id, label: j.label, state: j.state, bytesDone: j.bytesDone, bytesTotal: j.bytesTotal, speedBps: j.speedBps, etaSeconds: j.etaSeconds, error: j.lastError });
    }
    const failed = mine.filter((j) => j.state === 'failed' || j.state === 'cancelled');
    if (failed.length) {
      out.send('error', { message: `${failed.map((j) => j.label).join(', ')} could not be installed: ${failed[0]!.lastError ?? 'cancelled'}. Retry from Downloads.` });
      return;
    }
    if (mine.every((j) => j.state === 'completed')) break;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  try {
    const extras = body.extras.length ? await deps.features.enqueueItems(actor, body.extras) : [];
    out.send('done', { queued: extras.length });
  } catch (err) {
    out.send('error', { message: `The essentials are installed, but the extras could not be queued: ${(err as Error).message}` });
  }
}
