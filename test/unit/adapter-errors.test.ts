// One answer per failure kind of each outside program (docs/architecture.md, "Adapter failures"):
// each family's mapper in server/adapter-errors/ gives every kind its one status, code and
// sentence, never the adapter's own words (which name addresses), and it is the only place outside
// the adapter that knows the adapter's error class.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ImageEngineError, type ImageEngineFailure } from '../../server/adapters/image-engine/comfyui.js';
import { ModelRuntimeError, type ModelRuntimeFailure } from '../../server/adapters/model-runtime/ollama.js';
import { imageEngineAppError } from '../../server/adapter-errors/image-engine.js';
import { isUnknownModelPull, modelRuntimeAppError, modelRuntimeDown } from '../../server/adapter-errors/model-runtime.js';
import { AppError } from '../../server/errors.js';

const SECRET_URL = 'http://admin:s3cret-token@10.0.0.7:11434/api/chat?token=abc123';

/** What a person may read: a sentence, no address, no secret, no errno, no raw status. */
function expectPlainSentence(err: AppError) {
  expect(err.message).toMatch(/^[A-Z].*\.$/);
  expect(err.message).not.toMatch(/https?:|s3cret|abc123|10\.0\.0\.7|11434|ECONN|errno|undici|\b[45]\d\d\b/);
}

describe('model runtime failures', () => {
  const cases: Array<[ModelRuntimeFailure, number | undefined, number, string, RegExp]> = [
    ['unreachable', undefined, 503, 'model_runtime_unavailable', /isn't running on the Hearth computer\. Start Ollama/],
    ['timeout', undefined, 504, 'model_timeout', /took too long to answer/],
    ['http_error', 404, 503, 'model_not_found', /The AI model qwen3:4b isn't installed\. An admin can install it/],
    ['http_error', 500, 502, 'model_runtime_error', /could not answer this time/],
    ['bad_response', undefined, 502, 'model_runtime_error', /sent something Hearth could not read/],
    ['cut_off', undefined, 502, 'model_cut_off', /stopped in the middle of its answer/],
    ['pull_failed', undefined, 502, 'model_pull_failed', /could not be downloaded/],
  ];
  for (const [failure, status, answer, code, sentence] of cases) {
    it(`${failure}${status ? ` ${status}` : ''} is ${answer} ${code}`, () => {
      const err = modelRuntimeAppError(new ModelRuntimeError(failure, `The model runtime is not reachable at ${SECRET_URL}.`, status), { model: 'qwen3:4b' });
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ status: answer, code });
      expect((err as AppError).message).toMatch(sentence);
      expectPlainSentence(err as AppError);
    });
  }

  it("adds a caller's own way out after the sentence, and names no model it was not told", () => {
    const err = modelRuntimeAppError(new ModelRuntimeError('http_error', 'x', 404), { otherwise: 'Or make the picture without help.' }) as AppError;
    expect(err.message).toBe("The AI model isn't installed. An admin can install it from Setup, or choose another model. Or make the picture without help.");
  });

  it('leaves anything else alone: an AppError, a plain Error', () => {
    const app = new AppError(409, 'no_chat_model', 'Choose a chat model.');
    const plain = new Error('boom');
    expect(modelRuntimeAppError(app)).toBe(app);
    expect(modelRuntimeAppError(plain)).toBe(plain);
  });

  it('a runtime found down before asking is the same answer as an unreachable one', () => {
    const down = modelRuntimeDown();
    const unreachable = modelRuntimeAppError(new ModelRuntimeError('unreachable', 'x')) as AppError;
    expect({ status: down.status, code: down.code, message: down.message }).toEqual({ status: unreachable.status, code: unreachable.code, message: unreachable.message });
  });

  it("tells a pull of a name the runtime's library does not know from another failed pull", () => {
    expect(isUnknownModelPull(new ModelRuntimeError('pull_failed', 'Pulling ghost:1b failed: file does not exist'))).toBe(true);
    expect(isUnknownModelPull(new ModelRuntimeError('pull_failed', 'Pulling qwen3:4b failed: disk full'))).toBe(false);
    expect(isUnknownModelPull(new Error('file does not exist'))).toBe(false);
  });
});

describe('image engine failures', () => {
  const cases: Array<[ImageEngineFailure, number, string, RegExp]> = [
    ['unreachable', 503, 'image_engine_unavailable', /not answering right now/],
    ['bad_response', 502, 'image_engine_bad_response', /answer Hearth could not read/],
  ];
  for (const [failure, answer, code, sentence] of cases) {
    it(`${failure} is ${answer} ${code}`, () => {
      const err = imageEngineAppError(new ImageEngineError(failure, `The picture engine at ${SECRET_URL} answered 500.`));
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ status: answer, code });
      expect((err as AppError).message).toMatch(sentence);
      expectPlainSentence(err as AppError);
    });
  }

  it('leaves anything else alone', () => {
    const plain = new Error('boom');
    expect(imageEngineAppError(plain)).toBe(plain);
  });
});

// ---- each adapter error class is known in one place outside its adapter ----------------------

const serverDir = path.resolve(import.meta.dirname, '../../server');
const FAMILIES: Array<{ errorClass: string; adapter: string; mapper: string }> = [
  { errorClass: 'ModelRuntimeError', adapter: 'adapters/model-runtime/', mapper: 'adapter-errors/model-runtime.ts' },
  { errorClass: 'ImageEngineError', adapter: 'adapters/image-engine/', mapper: 'adapter-errors/image-engine.ts' },
];

function serverFiles(): string[] {
  return readdirSync(serverDir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.relative(serverDir, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
}

describe('one translation per adapter family', () => {
  const files = serverFiles();
  for (const { errorClass, adapter, mapper } of FAMILIES) {
    it(`${errorClass} is imported and checked only by ${mapper}`, () => {
      const users = files.filter((f) => !f.startsWith(adapter) && new RegExp(`\\b${errorClass}\\b`).test(readFileSync(path.join(serverDir, f), 'utf8')));
      expect(users).toEqual([mapper]);
    });
  }

  it('no adapter imports server/errors.ts, a mapper or a module', () => {
    const found = files
      .filter((f) => f.startsWith('adapters/'))
      .filter((f) => /from '(\.\.\/)+(errors|adapter-errors\/[\w-]+|modules\/[\w/-]+)\.js'/.test(readFileSync(path.join(serverDir, f), 'utf8')));
    expect(found).toEqual([]);
  });

  it('no eslint waiver in an adapter', () => {
    const found = files.filter((f) => f.startsWith('adapters/') && /eslint-disable/.test(readFileSync(path.join(serverDir, f), 'utf8')));
    expect(found).toEqual([]);
  });

  it('no second ModelRuntimeUnavailableError', () => {
    expect(files.filter((f) => /class ModelRuntimeUnavailableError\b/.test(readFileSync(path.join(serverDir, f), 'utf8')))).toEqual([]);
  });
});
