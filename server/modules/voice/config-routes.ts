// GET/PUT /api/voice (engines, voices, the caller's choices), GET/PUT /api/admin/voice, the
// wake-word files (/api/voice/wakewords) and GET/PUT /api/admin/wakewords.
import { actorOf } from '../../http/auth.js';
import type { Request, Response } from 'express';
import { bytes, defineRoutes, NO_CONTENT } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import type { VoiceConfigService } from './config-service.js';
import type { RemoteEnginesService } from './remotes-service.js';
import type { ServedFile, WakeWordsService } from './wakewords-service.js';
import { AddRemoteEngine, AdminWakeWordsResponse, AdminWakeWordsUpdate, AdminVoiceResponse, AdminVoiceUpdate, EngineTestResponse, RemoteEngineResponse, VoiceChoicesUpdate, VoiceConfigResponse } from './schema.js';

export function createVoiceConfigRoutes(config: VoiceConfigService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'user', response: VoiceConfigResponse }, (req) => config.config(actorOf(req)));
    r.put('/', { access: 'user', response: VoiceConfigResponse }, (req) => config.updateChoices(actorOf(req), parse(VoiceChoicesUpdate, req.body)));
  });
}

export function createAdminVoiceRoutes(config: VoiceConfigService, remotes: RemoteEnginesService) {
  return defineRoutes((r) => {
    r.post('/engines', { access: 'admin', response: RemoteEngineResponse }, async (req, res) => {
      const engine = await remotes.add(actorOf(req), parse(AddRemoteEngine, req.body));
      res.status(201);
      return { engine };
    });
    r.delete('/engines/:id', { access: 'admin', response: NO_CONTENT }, async (req, res) => {
      await remotes.remove(actorOf(req), String(req.params.id));
      res.status(204).end();
    });
    r.post('/engines/:id/test', { access: 'admin', response: EngineTestResponse }, (req) => remotes.test(actorOf(req), String(req.params.id)));
    r.get('/', { access: 'admin', response: AdminVoiceResponse }, (req) => config.adminSettings(actorOf(req)));
    r.put('/', { access: 'admin', response: AdminVoiceResponse }, (req) => config.updateAdmin(actorOf(req), parse(AdminVoiceUpdate, req.body)));
  });
}

/** A wake-word file: revalidated by ETag, cached for a year (its URL carries the package's version). */
async function sendServed(req: Request, res: Response, served: ServedFile): Promise<void> {
  res.setHeader('Cache-Control', 'private, max-age=31536000, immutable');
  res.setHeader('ETag', served.etag);
  const known = String(req.headers['if-none-match'] ?? '').split(',').map((t) => t.trim().replace(/^W\//, ''));
  if (known.includes(served.etag)) {
    res.status(304).end();
    return;
  }
  res.setHeader('Content-Type', served.contentType);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  await new Promise<void>((resolve, reject) => {
    res.sendFile(served.file, { cacheControl: false, lastModified: true, dotfiles: 'deny' }, (err) => (err && !res.headersSent ? reject(err) : resolve()));
  });
}

/** GET /api/voice/wakewords/…: the keyword models, the shared feature models, the browser runtime. */
export function createWakeWordFileRoutes(wake: WakeWordsService) {
  return defineRoutes((r) => {
    r.get('/features/:id', { access: 'user', response: bytes('application/octet-stream: an ONNX feature model (melspectrogram, embedding)') }, (req, res) => sendServed(req, res, wake.featureModel(String(req.params.id))));
    r.get('/runtime/:version/:file', { access: 'user', response: bytes('onnxruntime-web wasm and its loader') }, (req, res) => sendServed(req, res, wake.runtimeFile(String(req.params.version), String(req.params.file))));
    r.get('/:id/model', { access: 'user', response: bytes('application/octet-stream: an openWakeWord keyword model (ONNX)') }, async (req, res) => sendServed(req, res, await wake.model(String(req.params.id))));
  });
}

/** GET/PUT /api/admin/wakewords: which wake words the household has on. */
export function createAdminWakeWordRoutes(wake: WakeWordsService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'admin', response: AdminWakeWordsResponse }, (req) => wake.adminList(actorOf(req)));
    r.put('/', { access: 'admin', response: AdminWakeWordsResponse }, (req) => wake.setEnabled(actorOf(req), parse(AdminWakeWordsUpdate, req.body).enabled));
  });
}
