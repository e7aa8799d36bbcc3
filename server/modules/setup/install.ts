// POST /api/setup/download: installs the essentials (chat model, embeddings, router) through the
// durable queue while the wizard watches, then hands the chosen extras to the queue. The jobs are
// the queue's own, so a closed tab or a restart loses nothing; reopening the stream re-attaches.
import type { Actor } from '../../actor.js';
import type { ModelRuntimeClient } from '../../adapters/model-runtime/ollama.js';
import { AppError, BadRequestError, UnprocessableError } from '../../errors.js';
import type { AppSettingsStore } from '../../db/kv.js';
import type { HardwareProbe } from '../../platform/hardware.js';
import type { DownloadsService } from '../downloads/service.js';
import type { Catalog } from '../features/public.js';
import type { SetupDownloadBody } from '../features/schema.js';
import type { FeaturesService } from '../features/service.js';
import type { ConditionNotifications } from '../notifications/public.js';
import type { SetupInstallEvents } from './schema.js';

/** Failures are thrown once the stream is open: the route's stream runner sends them as `error`. */
export interface InstallEvents {
  send<K extends keyof SetupInstallEvents>(event: K, data: SetupInstallEvents[K]): void;
  signal: AbortSignal;
}

const POLL_MS = 500;

type InstallDeps = {
  features: FeaturesService;
  downloads: DownloadsService;
  catalog: Catalog;
  settings: AppSettingsStore;
  hardware: HardwareProbe;
  runtime: ModelRuntimeClient;
  conditions: ConditionNotifications;
};

/** The condition notification of a setup that left the AI models out. */
export const SETUP_MODELS_MISSING = 'setup_models_missing';

/** Said in the wizard and in the admins' notification when the models could not be installed. */
export const RUNTIME_MISSING_NEXT_STEP = 'Install Ollama from ollama.com and start it, then add them under Features.';

/**
 * Setup without the model runtime: the extras that install no model are queued now; the
 * essentials and the model extras are not, and the wizard and a notification to the admins say
 * which and why. The `done` event carries `notInstalled` (names) and `reason`.
 */
async function installWithoutRuntime(deps: InstallDeps, actor: Actor, body: SetupDownloadBody, essentials: string[], open: () => InstallEvents): Promise<void> {
  const { catalog, features } = deps;
  const now = body.extras.filter((id) => !features.needsRuntime(id));
  const later = [...essentials, ...body.extras.filter((id) => features.needsRuntime(id) && !essentials.includes(id))];
  // refusals (offline mode, no room on the disk) are plain HTTP errors: nothing is opened yet
  const jobs = now.length ? await features.enqueueItems(actor, now) : [];
  const notInstalled = later.map((id) => catalog.item(id)!.name);
  const reason = `These are AI models, and Hearth installs models into Ollama, the model runtime, which is not running on this computer. ${RUNTIME_MISSING_NEXT_STEP}`;
  // a condition, not an event: Check again (or a reload) while Ollama is still down updates the one
  // notification, and it goes once the models are there (container: SETUP_MODELS_MISSING's watch)
  await deps.conditions.raise(SETUP_MODELS_MISSING, {
    title: 'Setup finished without the AI models',
    body: `Not installed: ${notInstalled.join(', ')}. ${reason}`,
    link: '/features',
    linkLabel: 'Open Features',
  });
  const out = open();
  out.send('plan', { essentials: [], jobs: jobs.map((j) => ({ id: j.id, label: j.label })) });
  out.send('done', { queued: jobs.length, notInstalled, reason });
}

export async function installEssentials(
  deps: InstallDeps,
  actor: Actor,
  body: SetupDownloadBody,
  /** Opens the event stream; called once the jobs are queued, so refusals are plain HTTP errors. */
  open: () => InstallEvents,
): Promise<void> {
  const { catalog } = deps;
  for (const id of body.extras) if (!catalog.item(id)) throw new BadRequestError(`There is no feature called ${id}.`);
  const chatItem = body.chatItem ? catalog.chatModels().find((i) => i.id === body.chatItem) : deps.features.fitChat(await deps.hardware()).item;
  if (!chatItem) throw new BadRequestError(`${body.chatItem} is not a chat model.`);
  // the essentials are model-runtime models: without the runtime they could only fail, so what
  // needs no runtime is installed now and the rest is named (and left to Features)
  try {
    await deps.runtime.version();
  } catch {
    return installWithoutRuntime(deps, actor, body, [chatItem.id, catalog.data.essentials.embeddings, catalog.data.essentials.router], open);
  }

  const roles = [
    { key: 'chat', item: chatItem },
    { key: 'embeddings', item: catalog.item(catalog.data.essentials.embeddings)! },
    { key: 'router', item: catalog.item(catalog.data.essentials.router)! },
  ] as const;
  // the chosen models become the boot checks' "essentials"
  for (const r of roles) {
    const model = r.item.installs.map((a) => catalog.artifact(a.id)!).find((a) => a.kind === 'runtime_model');
    if (model) await deps.features.setChosenModel(r.key, model.target);
  }

  // The extras wait for the essentials even if this page is closed: the features service queues
  // them when the last essential finishes (and this stream does it sooner when it sees that).
  await deps.features.setPendingExtras({ essentials: roles.map((r) => r.item.id), extras: body.extras });
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
      // the job's lastError is the queue's own sentence for the user (shown in Downloads too)
      throw new UnprocessableError('install_failed', `${failed.map((j) => j.label).join(', ')} could not be installed: ${failed[0]!.lastError ?? 'cancelled'}. Retry from Downloads.`);
    }
    if (mine.every((j) => j.state === 'completed')) break;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  try {
    await deps.features.flushPendingExtras(actor);
  } catch (err) {
    // a refusal (offline mode, no room on the disk) says why; anything else is the stream runner's
    // generic error, never its own message
    if (err instanceof AppError) throw new AppError(err.status, err.code, `The essentials are installed, but the extras could not be queued: ${err.message}`);
    throw err;
  }
  // the download listener may have queued them a moment earlier: report what the queue holds
  const wanted = new Set(catalog.artifactsWithRequirements(catalog.withRequirements(body.extras).flatMap((id) => catalog.item(id)!.installs.map((a) => a.id))));
  const queued = (await deps.downloads.status()).jobs.filter((j) => j.itemId && wanted.has(j.itemId));
  out.send('done', { queued: queued.length });
}
