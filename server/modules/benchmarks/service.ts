// Benchmark runs: one at a time (a second is a 409), streamed to every admin who watches through a
// ReplayChannel (a late joiner gets what happened so far), the result kept in the household's
// settings so the Features page's fit hints can say what this computer measured.
import { assertAdmin, type Actor, type UserActor } from '../../actor.js';
import type { ModelRuntimeClient } from '../../adapters/model-runtime/ollama.js';
import { modelRuntimeAppError } from '../../adapter-errors/model-runtime.js';
import { ConflictError, NotFoundError } from '../../errors.js';
import type { ReplayChannel } from '../../http/sse.js';
import type { Clock } from '../../platform/clock.js';
import type { DiskSpace } from '../../platform/disk.js';
import type { Logger } from '../../platform/logger.js';
import { chatModels, measureChat, measureDisk, measureImage } from './measures.js';
import type { BenchmarkImagePorts } from './ports.js';
import { BenchmarkResults, type BenchmarkEvent, type BenchmarksResponse, type ChatBenchmark } from './schema.js';

export const RESULTS_KEY = 'benchmarks.last';

export interface BenchmarksDeps {
  runtime: ModelRuntimeClient;
  settings: { get<T = unknown>(key: string): Promise<T | undefined>; set(key: string, value: unknown): Promise<void> };
  image: BenchmarkImagePorts;
  disk: DiskSpace;
  dataDir: string;
  clock: Clock;
  logger: Logger;
  /** A new channel for each run's events (module.ts: a ReplayChannel). */
  newChannel: () => ReplayChannel<BenchmarkEvent>;
  /** The disk measure's file size (default 64 MiB). */
  diskBytes?: number;
}

/** What the Features page says of a chat model (its measured speed). */
export interface MeasuredSpeed {
  wordsPerSecond: number;
  tokensPerSecond: number;
  measuredAt: string;
}

export class BenchmarksService {
  private channel: ReplayChannel<BenchmarkEvent> | null = null;
  private running: Promise<void> | null = null;
  private readonly stop = new AbortController();

  constructor(private readonly deps: BenchmarksDeps) {}

  async results(actor: Actor): Promise<BenchmarksResponse> {
    assertAdmin(actor);
    return { running: this.running !== null, last: await this.last() };
  }

  /** POST /run: starts a run in the background (409 while one is under way). */
  start(actor: UserActor): { running: true; startedAt: string } {
    assertAdmin(actor);
    if (this.running) throw new ConflictError('benchmark_running', 'A benchmark is already running. Its progress is on the Benchmarks page.');
    const startedAt = this.deps.clock.now().toISOString();
    const channel = this.deps.newChannel();
    this.channel = channel;
    this.running = this.run(actor, channel, startedAt)
      .catch((err: unknown) => {
        this.deps.logger.error({ err }, 'benchmark run failed');
        channel.publish('error', { code: 'benchmark_failed', message: 'The benchmark stopped unexpectedly. Try again.' });
      })
      .finally(() => {
        channel.end();
        this.running = null;
      });
    return { running: true, startedAt };
  }

  /** GET /stream: the run under way or the last one since Hearth started (replayed, then live). */
  stream(actor: Actor): ReplayChannel<BenchmarkEvent> {
    assertAdmin(actor);
    if (!this.channel) throw new NotFoundError('No benchmark has run since Hearth started. Start one first.');
    return this.channel;
  }

  /** The measured speed of one chat model from the last run, for the Features page; null when not measured. */
  async chatSpeed(model: string): Promise<MeasuredSpeed | null> {
    const last = await this.last();
    const hit = last?.chat.find((c) => c.model === model || c.model === `${model}:latest` || `${c.model}:latest` === model);
    if (!last || !hit || hit.wordsPerSecond === null || hit.tokensPerSecond === null) return null;
    return { wordsPerSecond: hit.wordsPerSecond, tokensPerSecond: hit.tokensPerSecond, measuredAt: last.finishedAt };
  }

  /** Waits for a run under way (tests, close). */
  async idle(): Promise<void> {
    await this.running;
  }

  async close(): Promise<void> {
    this.stop.abort(new Error('Hearth is stopping'));
    await this.running;
  }

  private async last(): Promise<BenchmarkResults | null> {
    const parsed = BenchmarkResults.safeParse(await this.deps.settings.get(RESULTS_KEY));
    return parsed.success ? parsed.data : null;
  }

  private async run(actor: UserActor, channel: ReplayChannel<BenchmarkEvent>, startedAt: string): Promise<void> {
    const { signal } = this.stop;
    channel.publish('start', { startedAt, parts: ['chat', 'image', 'disk'] });

    channel.publish('progress', { part: 'chat', message: 'Looking for the installed chat models…' });
    const chat: ChatBenchmark[] = [];
    let chatSkipped: string | null = null;
    let models: string[] = [];
    try {
      models = await chatModels(this.deps.runtime);
      if (!models.length) chatSkipped = 'No chat model is installed, so chat was not measured.';
    } catch (err) {
      const e = modelRuntimeAppError(err);
      chatSkipped = `${e instanceof Error ? e.message : 'The model runtime did not answer.'} Chat was not measured.`;
    }
    for (const [i, model] of models.entries()) {
      channel.publish('progress', { part: 'chat', message: `Asking ${model} (${i + 1} of ${models.length})…` });
      const one = await measureChat(this.deps.runtime, model, signal);
      chat.push(one);
      channel.publish('chat', one);
    }

    channel.publish('progress', { part: 'image', message: 'Making one small picture…' });
    const image = await measureImage(this.deps.image, actor, signal);
    channel.publish('image', image);

    channel.publish('progress', { part: 'disk', message: 'Writing and reading a temporary file in the data folder…' });
    const disk = await measureDisk(this.deps.dataDir, this.deps.disk, this.deps.diskBytes);
    channel.publish('disk', disk);

    const results: BenchmarkResults = { startedAt, finishedAt: this.deps.clock.now().toISOString(), chat, chatSkipped, image, disk };
    await this.deps.settings.set(RESULTS_KEY, results);
    channel.publish('done', results);
  }
}
