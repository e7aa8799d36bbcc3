// One answer per failure kind of each outside program (docs/architecture.md, "Adapter failures"):
// each family's mapper in server/adapter-errors/ gives every kind its one status, code and
// sentence, never the adapter's own words (which name addresses), and it is the only place outside
// the adapter that knows the adapter's error class.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ArchiveServerError, type ArchiveServerFailure } from '../../server/adapters/archive-server/kiwix.js';
import { ImageEngineError, type ImageEngineFailure } from '../../server/adapters/image-engine/comfyui.js';
import { MediaServerError, type MediaServerFailure, type MediaService } from '../../server/adapters/media-server/plex.js';
import { ModelRuntimeError, type ModelRuntimeFailure } from '../../server/adapters/model-runtime/ollama.js';
import { DownloadError, type DownloadFailure } from '../../server/adapters/web/download.js';
import { WebSearchError, type WebSearchFailure } from '../../server/adapters/web-search/searxng.js';
import { HomeAssistantError, type HomeAssistantFailure } from '../../server/adapters/smart-home/home-assistant.js';
import { FrigateError, type FrigateFailure } from '../../server/adapters/smart-home/frigate.js';
import { archiveServerAppError, archiveServerFailureKind } from '../../server/adapter-errors/archive-server.js';
import { imageEngineAppError } from '../../server/adapter-errors/image-engine.js';
import { isMediaServerOutage, mediaServerAppError, mediaServerCheckAppError, mediaServerFailure, type MediaServerContext } from '../../server/adapter-errors/media-server.js';
import { isUnknownModelPull, modelRuntimeAppError, modelRuntimeDown } from '../../server/adapter-errors/model-runtime.js';
import { webFetchAppError, webFetchFailureKind } from '../../server/adapter-errors/web-fetch.js';
import { webSearchAppError, webSearchDown, webSearchFailureKind } from '../../server/adapter-errors/web-search.js';
import { frigateAppError, frigateCheckAppError, frigateFailureKind, homeAssistantAppError, homeAssistantCheckAppError, homeAssistantDown, homeAssistantFailureKind } from '../../server/adapter-errors/smart-home.js';
import { ConverterToolError, type ConverterFailure } from '../../server/adapters/converter/programs.js';
import { converterAppError } from '../../server/adapter-errors/converter.js';
import { ProductDbError, type ProductDbFailure } from '../../server/adapters/product-db/open-food-facts.js';
import { productDbAppError, productDbFailureKind } from '../../server/adapter-errors/product-db.js';
import { AppError } from '../../server/errors.js';
import { isRetryableNotifyFailure, notifyCheckAppError, notifyFailureKind } from '../../server/adapter-errors/notify.js';
import { NotifyError, type NotifyFailure } from '../../server/adapters/notify/http.js';

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

describe('media server failures', () => {
  // the same kind from the same service is one answer from every part of the module
  const cases: Array<[MediaService, MediaServerFailure, MediaServerContext, number, string, RegExp]> = [
    ['server', 'unreachable', {}, 503, 'media_server_down', /media server is not answering right now/],
    ['server', 'blocked', {}, 503, 'media_server_down', /not answering right now/],
    ['server', 'timeout', {}, 504, 'media_server_timeout', /took too long to answer/],
    ['server', 'unauthorized', {}, 503, 'media_server_refused', /admin needs to connect it again/],
    ['server', 'unauthorized', { token: 'member' }, 409, 'media_link_revoked', /Link it again on the Media page/],
    ['server', 'not_found', { notFound: 'That title is not in the household’s library any more.' }, 404, 'not_found', /not in the household’s library/],
    ['server', 'not_found', {}, 404, 'not_found', /does not have that/],
    ['server', 'forbidden', {}, 502, 'media_server_error', /could not read/],
    ['server', 'bad_request', {}, 502, 'media_server_error', /could not read/],
    ['server', 'http_error', {}, 502, 'media_server_error', /could not read/],
    ['server', 'bad_response', {}, 502, 'media_server_error', /could not read/],
    ['discover', 'unreachable', { token: 'member' }, 503, 'media_discover_down', /watchlist service is not answering/],
    ['discover', 'blocked', { token: 'member' }, 503, 'media_discover_down', /watchlist service is not answering/],
    ['discover', 'timeout', { token: 'member' }, 504, 'media_discover_timeout', /took too long/],
    ['discover', 'unauthorized', { token: 'member' }, 409, 'media_link_revoked', /Link it again/],
    ['discover', 'not_found', { token: 'member' }, 422, 'media_not_watchlistable', /cannot go on a watchlist/],
    ['discover', 'bad_response', { token: 'member' }, 502, 'media_discover_error', /could not read/],
    ['discover', 'http_error', { token: 'member' }, 502, 'media_discover_error', /could not read/],
    ['account', 'unreachable', {}, 503, 'media_account_unavailable', /sign-in service could not be reached/],
    ['account', 'blocked', {}, 503, 'media_account_unavailable', /could not be reached/],
    ['account', 'timeout', {}, 504, 'media_account_timeout', /took too long/],
    ['account', 'unauthorized', {}, 409, 'media_sign_in_refused', /Sign in with Plex again/],
    ['account', 'unauthorized', { token: 'pin' }, 409, 'pin_refused', /Start again to get a new code/],
    ['account', 'not_found', {}, 502, 'media_account_error', /could not read/],
    ['account', 'bad_response', {}, 502, 'media_account_error', /could not read/],
  ];
  for (const [service, failure, ctx, answer, code, sentence] of cases) {
    it(`${service} ${failure}${ctx.token ? ` (${ctx.token} token)` : ''} is ${answer} ${code}`, () => {
      const err = mediaServerAppError(new MediaServerError(service, failure, `The media server at ${SECRET_URL} answered 500.`, 500), ctx);
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ status: answer, code });
      expect((err as AppError).message).toMatch(sentence);
      expectPlainSentence(err as AppError);
    });
  }

  it('an address being set up: every kind is a 422 about what was typed', () => {
    const all: MediaServerFailure[] = ['unauthorized', 'forbidden', 'not_found', 'bad_request', 'unreachable', 'timeout', 'bad_response', 'http_error', 'blocked'];
    const codes = Object.fromEntries(
      all.map((f) => {
        const err = mediaServerCheckAppError(new MediaServerError('server', f, SECRET_URL)) as AppError;
        expect(err.status).toBe(422);
        // the address-refused sentence shows an example address; none of the one that failed
        expect(err.message).toMatch(/^[A-Z].*\.$/);
        expect(err.message).not.toMatch(/s3cret|abc123|10\.0\.0\.7|11434/);
        return [f, err.code];
      }),
    );
    expect(codes).toEqual({
      unauthorized: 'media_token_refused',
      forbidden: 'media_token_refused',
      blocked: 'media_address_refused',
      not_found: 'media_not_plex',
      bad_request: 'media_not_plex',
      bad_response: 'media_not_plex',
      http_error: 'media_not_plex',
      unreachable: 'media_server_unreachable',
      timeout: 'media_server_unreachable',
    });
  });

  it('reads the kind for reactions, by service when asked, and leaves anything else alone', () => {
    const down = new MediaServerError('discover', 'unreachable', 'x');
    expect(mediaServerFailure(down)).toBe('unreachable');
    expect(mediaServerFailure(down, 'server')).toBeNull();
    expect(isMediaServerOutage(down)).toBe(false);
    expect(isMediaServerOutage(down, 'discover')).toBe(true);
    const plain = new Error('boom');
    expect(mediaServerFailure(plain)).toBeNull();
    expect(mediaServerAppError(plain)).toBe(plain);
    expect(mediaServerCheckAppError(plain)).toBe(plain);
  });
});

describe('web search failures', () => {
  const cases: Array<[WebSearchFailure, number, string, RegExp]> = [
    ['unreachable', 503, 'web_search_unavailable', /could not reach its web search/],
    ['blocked', 503, 'web_search_address_refused', /does not search through/],
    ['timeout', 504, 'web_search_timeout', /took too long to answer/],
    ['http_error', 502, 'web_search_bad_response', /could not use/],
    ['bad_response', 502, 'web_search_bad_response', /could not use/],
    ['too_large', 502, 'web_search_bad_response', /could not use/],
  ];
  for (const [failure, answer, code, sentence] of cases) {
    it(`${failure} is ${answer} ${code}`, () => {
      const err = webSearchAppError(new WebSearchError(failure, `The web search address was refused: ${SECRET_URL} answered 403 (settings.yml).`, 403));
      expect(err).toMatchObject({ status: answer, code });
      expect((err as AppError).message).toMatch(sentence);
      expectPlainSentence(err as AppError);
    });
  }

  it('no web search set is the same answer as one that does not answer; anything else is left alone', () => {
    expect(webSearchDown()).toMatchObject({ status: 503, code: 'web_search_unavailable' });
    const plain = new Error('boom');
    expect(webSearchAppError(plain)).toBe(plain);
    expect(webSearchFailureKind(plain)).toBeNull();
    expect(webSearchFailureKind(new WebSearchError('timeout', 'x'))).toBe('timeout');
  });
});

describe('web fetch failures', () => {
  const cases: Array<[DownloadFailure, string, number, string, RegExp]> = [
    ['blocked', `The address ${SECRET_URL} is on a private or local network.`, 503, 'download_address_refused', /does not download from that address/],
    ['unreachable', 'Could not connect: getaddrinfo ENOTFOUND 10.0.0.7', 503, 'download_site_unreachable', /seems to be offline/],
    ['unreachable', `Could not connect: something odd at ${SECRET_URL}`, 503, 'download_site_unreachable', /could not connect to the download site/],
    ['timeout', 'No data for 60 s.', 504, 'download_timeout', /stopped receiving data for 60 seconds/],
    ['http_error', 'The server answered 404.', 502, 'download_failed', /no longer where Hearth looked/],
    ['bad_response', 'The downloaded file is damaged (its checksum does not match).', 502, 'download_failed', /checksum/],
    ['cut_off', 'The connection dropped after 1024 bytes.', 502, 'download_failed', /connection dropped/],
    ['cut_off', `The download worker stopped unexpectedly: connect ECONNRESET ${SECRET_URL}; the download will resume.`, 502, 'download_failed', /connection dropped during the download/],
    ['cut_off', `The download worker stopped unexpectedly: worker at ${SECRET_URL} exited; the download will resume.`, 502, 'download_failed', /download failed/],
  ];
  for (const [failure, message, answer, code, sentence] of cases) {
    it(`${failure} ("${message.slice(0, 30)}…") is ${answer} ${code}`, () => {
      const err = webFetchAppError(new DownloadError(message, true, failure));
      expect(err).toMatchObject({ status: answer, code });
      expect((err as AppError).message).toMatch(sentence);
      expect((err as AppError).message).toMatch(/^[A-Z].*\.$/);
      expect((err as AppError).message).not.toMatch(/https?:|s3cret|abc123|10\.0\.0\.7|11434|ECONN|ENOTFOUND|undici/);
    });
  }

  it('leaves anything else alone', () => {
    const plain = new Error('boom');
    expect(webFetchAppError(plain)).toBe(plain);
    expect(webFetchFailureKind(plain)).toBeNull();
  });
});

describe('archive server failures', () => {
  const cases: Array<[ArchiveServerFailure, number, string, RegExp]> = [
    ['unreachable', 503, 'archive_server_unavailable', /not answering right now/],
    ['timeout', 504, 'archive_server_timeout', /took too long/],
    ['http_error', 502, 'archive_server_error', /could not use/],
    ['bad_response', 502, 'archive_server_error', /could not use/],
  ];
  for (const [failure, answer, code, sentence] of cases) {
    it(`${failure} is ${answer} ${code}`, () => {
      const err = archiveServerAppError(new ArchiveServerError(failure, `The archive server is not answering: connect ECONNREFUSED ${SECRET_URL}`, 500));
      expect(err).toMatchObject({ status: answer, code });
      expect((err as AppError).message).toMatch(sentence);
      expectPlainSentence(err as AppError);
    });
  }

  it('leaves anything else alone', () => {
    const plain = new Error('boom');
    expect(archiveServerAppError(plain)).toBe(plain);
    expect(archiveServerFailureKind(plain)).toBeNull();
  });
});

describe('product database failures', () => {
  const cases: Array<[ProductDbFailure, number, string, RegExp]> = [
    ['unreachable', 503, 'product_lookup_unavailable', /could not reach Open Food Facts/],
    ['blocked', 503, 'product_lookup_unavailable', /could not reach Open Food Facts/],
    ['busy', 503, 'product_lookup_busy', /busy right now/],
    ['timeout', 504, 'product_lookup_timeout', /took too long/],
    ['http_error', 502, 'product_lookup_bad_response', /could not read/],
    ['bad_response', 502, 'product_lookup_bad_response', /could not read/],
    ['too_large', 502, 'product_lookup_bad_response', /could not read/],
  ];
  for (const [failure, answer, code, sentence] of cases) {
    it(`${failure} is ${answer} ${code}`, () => {
      const err = productDbAppError(new ProductDbError(failure, `Could not reach ${SECRET_URL}.`)) as AppError;
      expect(err).toMatchObject({ status: answer, code });
      expect(err.message).toMatch(sentence);
      expectPlainSentence(err);
    });
  }

  it('reads the kind; leaves anything else alone', () => {
    expect(productDbFailureKind(new ProductDbError('busy', 'x'))).toBe('busy');
    const plain = new Error('boom');
    expect(productDbFailureKind(plain)).toBeNull();
    expect(productDbAppError(plain)).toBe(plain);
  });
});

describe('Home Assistant failures', () => {
  const cases: Array<[HomeAssistantFailure, number, string, RegExp]> = [
    ['refused', 422, 'home_assistant_refused', /refused that action/],
    ['timeout', 503, 'home_assistant_unavailable', /did not answer within 10 seconds/],
    ['auth_failed', 503, 'home_assistant_unavailable', /no longer accepts the access token/],
    ['unreachable', 503, 'home_assistant_unavailable', /is not answering right now/],
    ['blocked', 503, 'home_assistant_unavailable', /is not answering right now/],
    ['not_home_assistant', 503, 'home_assistant_unavailable', /is not answering right now/],
    ['bad_response', 503, 'home_assistant_unavailable', /is not answering right now/],
  ];
  for (const [failure, answer, code, sentence] of cases) {
    it(`${failure} is ${answer} ${code}`, () => {
      const err = homeAssistantAppError(new HomeAssistantError(failure, `Could not reach ${SECRET_URL}.`)) as AppError;
      expect(err).toMatchObject({ status: answer, code });
      expect(err.message).toMatch(sentence);
      expectPlainSentence(err);
    });
  }

  it('an address being set up: every kind is a 422 about what was typed', () => {
    const codes: Record<HomeAssistantFailure, string> = {
      auth_failed: 'home_assistant_token_refused',
      blocked: 'home_assistant_address_refused',
      not_home_assistant: 'home_assistant_not_found',
      bad_response: 'home_assistant_not_found',
      refused: 'home_assistant_not_found',
      unreachable: 'home_assistant_unreachable',
      timeout: 'home_assistant_unreachable',
    };
    for (const [failure, code] of Object.entries(codes) as Array<[HomeAssistantFailure, string]>) {
      const err = homeAssistantCheckAppError(new HomeAssistantError(failure, SECRET_URL)) as AppError;
      expect(err).toMatchObject({ status: 422, code });
      expectPlainSentence(err);
    }
  });

  it('not connected is the same answer as one that does not answer; reads the kind; leaves anything else alone', () => {
    const down = homeAssistantDown();
    const unreachable = homeAssistantAppError(new HomeAssistantError('unreachable', 'x')) as AppError;
    expect([down.status, down.code, down.message]).toEqual([unreachable.status, unreachable.code, unreachable.message]);
    expect(homeAssistantFailureKind(new HomeAssistantError('timeout', 'x'))).toBe('timeout');
    const plain = new Error('boom');
    expect(homeAssistantFailureKind(plain)).toBeNull();
    expect(homeAssistantAppError(plain)).toBe(plain);
    expect(homeAssistantCheckAppError(plain)).toBe(plain);
  });
});

describe('camera recorder (Frigate) failures', () => {
  const kinds: FrigateFailure[] = ['unreachable', 'timeout', 'auth_failed', 'not_frigate', 'blocked', 'not_found'];
  it('reading: not_found is 404, every other kind 503 camera_recorder_unavailable', () => {
    for (const k of kinds) {
      const err = frigateAppError(new FrigateError(k)) as AppError;
      expect(err).toMatchObject(k === 'not_found' ? { status: 404, code: 'not_found' } : { status: 503, code: 'camera_recorder_unavailable' });
      expectPlainSentence(err);
    }
  });
  it('setting up: every kind is a 422 about what was typed; anything else is left alone', () => {
    for (const k of kinds) {
      const err = frigateCheckAppError(new FrigateError(k)) as AppError;
      expect(err.status).toBe(422);
      expect(err.code).toMatch(/^camera_recorder_/);
      expectPlainSentence(err);
    }
    expect(frigateFailureKind(new FrigateError('timeout'))).toBe('timeout');
    const plain = new Error('boom');
    expect(frigateAppError(plain)).toBe(plain);
    expect(frigateCheckAppError(plain)).toBe(plain);
    expect(frigateFailureKind(plain)).toBeNull();
  });
});

describe('converter tool failures', () => {
  const cases: Array<[ConverterFailure, ConverterToolError['tool'], number, string, RegExp]> = [
    ['missing', 'soffice', 422, 'tool_not_installed', /needs LibreOffice, which is not installed.*An admin can install it\./],
    ['unreadable', 'ffmpeg', 422, 'unreadable_file', /could not read that file as a video\./],
    ['timeout', 'gs', 504, 'conversion_timeout', /took too long/],
    ['aborted', 'ffmpeg', 409, 'cancelled', /was cancelled/],
    ['failed', 'pandoc', 502, 'conversion_failed', /did not finish/],
  ];
  for (const [failure, tool, status, code, sentence] of cases) {
    it(`${failure} is ${status} ${code}, without the program's own words`, () => {
      const err = converterAppError(new ConverterToolError(failure, tool, `${tool} exited 1: ${SECRET_URL} errno ECONNREFUSED`), 'a video') as AppError;
      expect(err).toMatchObject({ status, code });
      expect(err.message).toMatch(sentence);
      expectPlainSentence(err);
    });
  }
});

// ---- each adapter error class is known in one place outside its adapter ----------------------

const serverDir = path.resolve(import.meta.dirname, '../../server');
const FAMILIES: Array<{ errorClass: string; adapter: string; mapper: string }> = [
  { errorClass: 'ModelRuntimeError', adapter: 'adapters/model-runtime/', mapper: 'adapter-errors/model-runtime.ts' },
  { errorClass: 'ImageEngineError', adapter: 'adapters/image-engine/', mapper: 'adapter-errors/image-engine.ts' },
  { errorClass: 'MediaServerError', adapter: 'adapters/media-server/', mapper: 'adapter-errors/media-server.ts' },
  { errorClass: 'WebSearchError', adapter: 'adapters/web-search/', mapper: 'adapter-errors/web-search.ts' },
  { errorClass: 'DownloadError', adapter: 'adapters/web/', mapper: 'adapter-errors/web-fetch.ts' },
  { errorClass: 'ArchiveServerError', adapter: 'adapters/archive-server/', mapper: 'adapter-errors/archive-server.ts' },
  { errorClass: 'HomeAssistantError', adapter: 'adapters/smart-home/', mapper: 'adapter-errors/smart-home.ts' },
  { errorClass: 'FrigateError', adapter: 'adapters/smart-home/', mapper: 'adapter-errors/smart-home.ts' },
  { errorClass: 'ConverterToolError', adapter: 'adapters/converter/', mapper: 'adapter-errors/converter.ts' },
  { errorClass: 'ProductDbError', adapter: 'adapters/product-db/', mapper: 'adapter-errors/product-db.ts' },
];
/** What the mappers let a module read (a kind, for a reaction or a log line), never to build an answer from. */
const KIND_READERS = /\b(modelRuntimeFailureKind|mediaServerFailure|isMediaServerOutage|webSearchFailureKind|webFetchFailureKind|archiveServerFailureKind|homeAssistantFailureKind|frigateFailureKind|converterFailureKind)\(/;

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

  // A module may react to a kind (tell the connection, mark a link, log it) but not answer with it:
  // a line that reads a kind does not also build an error, and no switch runs over a kind. A simple
  // line rule, not a proof; the mappers' own tests above say what each kind answers.
  it('outside server/adapter-errors a failure kind is read for a reaction, never turned into an answer', () => {
    const found: string[] = [];
    for (const f of files.filter((x) => !x.startsWith('adapters/') && !x.startsWith('adapter-errors/'))) {
      readFileSync(path.join(serverDir, f), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (!KIND_READERS.test(line)) return;
          if (/\bnew \w*Error\(|\bswitch \(/.test(line)) found.push(`${f}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });

  it('the rule fires on a kind turned into an answer', () => {
    expect(KIND_READERS.test("if (mediaServerFailure(err) === 'timeout') throw new UpstreamError('x', 'y');")).toBe(true);
  });

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

describe('notification channel failures (the admin’s connect check)', () => {
  const cases: Array<[NotifyFailure, number, string, RegExp]> = [
    ['refused', 422, 'notify_token_refused', /did not accept that token/],
    ['blocked_by_user', 422, 'notify_token_refused', /did not accept that token/],
    ['blocked', 422, 'notify_address_refused', /may not send to that address/],
    ['unreachable', 422, 'notify_unreachable', /could not be reached/],
    ['timeout', 422, 'notify_unreachable', /could not be reached/],
    ['server_error', 422, 'notify_unreachable', /could not be reached/],
    ['bad_response', 422, 'notify_bad_response', /could not read/],
  ];
  for (const [failure, answer, code, sentence] of cases) {
    it(`${failure} is ${answer} ${code}`, () => {
      const err = notifyCheckAppError(new NotifyError(failure, `Telegram at ${SECRET_URL} answered 401.`, 401), 'Telegram');
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).status).toBe(answer);
      expect((err as AppError).code).toBe(code);
      expect((err as AppError).message).toMatch(sentence);
      expectPlainSentence(err as AppError);
    });
  }
  it('leaves anything else alone, and reads kinds and retries for the dispatcher', () => {
    const other = new Error('x');
    expect(notifyCheckAppError(other, 'Telegram')).toBe(other);
    expect(notifyFailureKind(other)).toBeNull();
    expect(isRetryableNotifyFailure(new NotifyError('server_error', 'The ntfy server had an error (503).', 503))).toBe(true);
    expect(isRetryableNotifyFailure(new NotifyError('refused', 'The ntfy server refused the credentials.', 401))).toBe(false);
  });
});
