// Analyze a photo (POST /api/vision/analyze): the picture is checked and made upright and small
// enough with sharp (long side at most VISION_LONG_SIDE), OCR on this computer reads it for the
// tasks where small print matters, and the household's vision model answers in the task's JSON
// schema (Ollama's `format`). The answer is checked with ajv: one that does not fit is asked for
// once more, then it is 422 vision_unreadable. Nothing is written unless the member asked to keep
// the result; kept results are the member's alone (another member's is a 404).
import { randomUUID } from 'node:crypto';
import type { ValidateFunction } from 'ajv';
import type { ChatMessage, ModelRuntimeClient } from '../../adapters/model-runtime/ollama.js';
import { modelRuntimeAppError } from '../../adapter-errors/model-runtime.js';
import { ownedOrNotFound, type UserActor } from '../../actor.js';
import { AppError, BadRequestError, ConflictError, NotFoundError, TooManyRequestsError, UnprocessableError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import { lazyImport } from '../../platform/lazy.js';
import type { Logger } from '../../platform/logger.js';
import { callerSchema, validatorFor } from './json-schema.js';
import type { VisionPorts } from './ports.js';
import { VISION_LONG_SIDE, type AnalyzeResponse, type StoredVisionResult, type VisionStatusResponse, type VisionTask } from './schema.js';
import type { VisionResultRow, VisionStore } from './store.js';
import { OCR_TASKS, RETRY_NOTE, TASK_SCHEMAS, taskPrompt, type JsonSchema } from './tasks.js';

/** A vision model's answer budget (a 7B vision model on a CPU takes tens of seconds). */
export const VISION_MODEL_MS = 120_000;
/** OCR that reads fewer letters and digits than this is not trusted as the picture's text. */
const MIN_OCR_CHARS = 8;
/** Formats sharp reads that a camera or a screenshot makes. */
const PICTURE_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'tiff', 'heif']);

const loadSharp = lazyImport(() => import('sharp').then((m) => m.default));

export const NO_VISION_MODEL =
  'No model that can look at pictures is installed. An admin can add one: turn on Home inventory in Admin › Features (it installs a vision model), or install a vision model such as llava in Admin › Models and choose it as the vision model.';

export interface AnalyzeInput {
  image: Buffer;
  task: VisionTask;
  /** The caller's schema as sent (task `schema`), and whether the form cut it. */
  schema?: string;
  schemaTruncated?: boolean;
  store?: boolean;
}

export interface VisionDeps extends VisionPorts {
  store: VisionStore;
  runtime: Pick<ModelRuntimeClient, 'chat'>;
  clock: Clock;
  logger: Logger;
  modelTimeoutMs?: number;
  /** Analyses at once for the household (each holds its photo, up to 15 MB, in memory until the model answers). */
  maxConcurrent?: number;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export class VisionService {
  private running = 0;

  constructor(private readonly deps: VisionDeps) {}

  /**
   * A place for one analysis, taken before its photo is read into memory and given back when it is
   * answered; with every place taken the caller is told to try again in a moment (429), so a burst of
   * photos cannot fill the server's memory while the model works through them.
   */
  admit(): () => void {
    if (this.running >= (this.deps.maxConcurrent ?? 2)) {
      throw new TooManyRequestsError('vision_busy', 'Hearth is already looking at other photos. Try again in a moment.', 5);
    }
    this.running++;
    let done = false;
    return () => {
      if (!done) this.running--;
      done = true;
    };
  }

  /** The picture upright (EXIF orientation applied) and at most VISION_LONG_SIDE on its long side, as JPEG. */
  async prepare(image: Buffer): Promise<Buffer> {
    const sharp = await loadSharp();
    let format: string | undefined;
    try {
      format = (await sharp(image).metadata()).format;
    } catch {
      format = undefined;
    }
    if (!format || !PICTURE_FORMATS.has(format)) {
      throw new BadRequestError('That file is not a picture Hearth can look at. Send a JPEG, PNG, WebP, GIF, TIFF or HEIC photo.', undefined, 'unsupported_image');
    }
    try {
      return await sharp(image, { failOn: 'error' })
        .rotate()
        .resize(VISION_LONG_SIDE, VISION_LONG_SIDE, { fit: 'inside', withoutEnlargement: true })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: 85 })
        .toBuffer();
    } catch {
      throw new UnprocessableError('unreadable_image', 'That picture is damaged or cut short, so Hearth cannot look at it. Take or choose the photo again.');
    }
  }

  private async model(): Promise<string> {
    const model = await this.deps.models.visionModel();
    if (!model) throw new ConflictError('no_vision_model', NO_VISION_MODEL);
    return model;
  }

  /** OCR's text, or null when it read nothing useful or could not read (the model then reads alone). */
  private async ocr(image: Buffer): Promise<string | null> {
    try {
      const read = await this.deps.ocr.read(image);
      return (read.text.match(/[\p{L}\p{N}]/gu) ?? []).length >= MIN_OCR_CHARS ? read.text : null;
    } catch (err) {
      if (err instanceof AppError && err.status === 503) throw err;
      this.deps.logger.warn({ err }, 'OCR could not read a photo for vision; the model reads it alone');
      return null;
    }
  }

  /** Asks the model in the schema; one more time when the answer does not fit; 422 vision_unreadable after that. */
  private async ask(model: string, task: VisionTask, schema: JsonSchema, validate: ValidateFunction, image: string, ocrText: string | null): Promise<Record<string, unknown>> {
    const prompt = taskPrompt(task, ocrText);
    const messages: ChatMessage[] = [
      { role: 'system', content: prompt.system },
      { role: 'user', content: prompt.user, images: [image] },
    ];
    for (let attempt = 1; attempt <= 2; attempt++) {
      let content: string;
      try {
        const r = await this.deps.runtime.chat({ model, messages, format: schema, options: { temperature: 0 }, timeoutMs: this.deps.modelTimeoutMs ?? VISION_MODEL_MS });
        content = r.content.trim();
      } catch (err) {
        throw modelRuntimeAppError(err, { model });
      }
      const answer = safeJson(content);
      if (isObject(answer) && validate(answer)) return answer;
      this.deps.logger.warn({ task, attempt }, 'the vision model did not answer in the schema asked for');
      messages.push({ role: 'assistant', content: content.slice(0, 4_000) }, { role: 'user', content: RETRY_NOTE });
    }
    throw new UnprocessableError('vision_unreadable', 'The vision model could not give an answer in the shape asked for, even when asked twice. Try a sharper photo taken closer, or try again.');
  }

  async analyze(actor: UserActor, input: AnalyzeInput): Promise<AnalyzeResponse> {
    // a request that could never work is refused before the picture is touched
    const custom = input.task === 'schema' ? callerSchema(input.schema, input.schemaTruncated === true) : null;
    const schema = custom ? custom.schema : TASK_SCHEMAS[input.task as Exclude<VisionTask, 'schema'>];
    const validate = custom ? custom.validate : validatorFor(schema);
    let started = performance.now();
    const prepared = await this.prepare(input.image);
    const resizeMs = performance.now() - started;
    const model = await this.model();
    started = performance.now();
    const ocrText = OCR_TASKS.has(input.task) ? await this.ocr(input.image) : null;
    const ocrMs = performance.now() - started;
    started = performance.now();
    const result = await this.ask(model, input.task, schema, validate, prepared.toString('base64'), ocrText);
    const modelMs = performance.now() - started;
    // the text as OCR read it, character for character, when it read any
    if (input.task === 'text' && ocrText !== null) result.text = ocrText;
    let id: string | null = null;
    if (input.store) {
      id = randomUUID();
      await this.deps.store.insert({ id, userId: actor.id, task: input.task, model, result, ocrText, createdAt: this.deps.clock.now().toISOString() });
    }
    const ms = (n: number) => Math.round(n * 10) / 10;
    return { task: input.task, model, result, ocrText, id, timings: { resizeMs: ms(resizeMs), ocrMs: ms(ocrMs), modelMs: ms(modelMs) } };
  }

  /** Whether a photo can be analyzed now: the vision model, or the sentence saying why not. */
  async status(): Promise<VisionStatusResponse> {
    try {
      const model = await this.deps.models.visionModel();
      return model ? { model, unavailable: null } : { model: null, unavailable: NO_VISION_MODEL };
    } catch (err) {
      if (err instanceof AppError) return { model: null, unavailable: err.message };
      throw err;
    }
  }

  async list(actor: UserActor): Promise<StoredVisionResult[]> {
    return (await this.deps.store.list(actor.id, 100)).map(({ userId: _u, ...r }) => r);
  }

  /** A kept result of this member's; another member's is a 404 like one that does not exist. */
  private async own(actor: UserActor, id: string): Promise<VisionResultRow & { ownerId: string }> {
    const row = await this.deps.store.get(id);
    const owned = ownedOrNotFound(actor, row ? { ...row, ownerId: row.userId } : null, () => new NotFoundError('That saved result does not exist (it may have been deleted).'));
    return owned;
  }

  async get(actor: UserActor, id: string): Promise<StoredVisionResult> {
    const { userId: _u, ownerId: _o, ...r } = await this.own(actor, id);
    return r;
  }

  async remove(actor: UserActor, id: string): Promise<void> {
    await this.deps.store.remove((await this.own(actor, id)).id);
  }

  /**
   * A photo attached in chat, for a chat model that cannot see: what the vision model saw, as a few
   * lines the chat model reads; null when no vision model is installed.
   */
  async describeForChat(actor: UserActor, image: Buffer): Promise<string | null> {
    let result: Record<string, unknown>;
    try {
      ({ result } = await this.analyze(actor, { image, task: 'describe' }));
    } catch (err) {
      if (err instanceof AppError && err.code === 'no_vision_model') return null;
      throw err;
    }
    const objects = Array.isArray(result.objects) ? result.objects.map(String) : [];
    return `${String(result.caption)}${objects.length > 0 ? `\nThings seen: ${objects.join(', ')}.` : ''}`;
  }
}
