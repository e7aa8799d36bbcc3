// /api/admin/image-loras (the household's LoRAs, categories, per-member grants and protections) and
// /api/admin/image-engine (the engine's folder, Python and checkpoint; its log). Admins only.
import { actorOf } from '../../http/auth.js';
import { defineRoutes, NO_CONTENT } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import type { ImageEngineAdminService } from './engine-admin-service.js';
import { receiveFile } from './http-io.js';
import type { ImageLorasService } from './loras-service.js';
import {
  AdminLoraResponse,
  AdminLorasResponse,
  CategoryBody,
  CategoryPatchBody,
  CategoryResponse,
  EngineAdminResponse,
  EngineConfigBody,
  EngineLogsQuery,
  EngineLogsResponse,
  GrantBody,
  GrantParams,
  LoraIdParams,
  LoraPatchBody,
  MAX_LORA_BYTES,
  MemberGrants,
  MemberParams,
  Protections,
  ProtectionsPatchBody,
  RecoverDiskResponse,
} from './schema.js';

export function createImageLoraAdminRoutes(loras: ImageLorasService, opts: { maxLoraBytes?: number } = {}) {
  const max = opts.maxLoraBytes ?? MAX_LORA_BYTES;
  return defineRoutes((r) => {
    r.get('/', { access: 'admin', response: AdminLorasResponse }, (req) => loras.adminList(actorOf(req)));
    r.post('/import-file', { access: 'admin', jsonLimit: false, response: AdminLoraResponse }, async (req, res) => {
      const actor = actorOf(req);
      // the form's length is the file's plus a few hundred bytes of form: enough to refuse what cannot fit
      const declared = Number(req.headers['content-length']);
      const pending = await loras.prepareImport(actor, Number.isSafeInteger(declared) && declared > 0 ? declared : 0);
      let received;
      try {
        received = await receiveFile(req, pending.tempPath, max, { what: 'LoRA files' });
      } catch (err) {
        await loras.abandonImport(pending);
        throw err;
      }
      const lora = await loras.finishImport(actor, pending, received);
      res.status(201);
      return { lora };
    });
    r.post('/recover-disk', { access: 'admin', response: RecoverDiskResponse }, async (req) => ({ registered: await loras.recoverDisk(actorOf(req)) }));

    // ---- categories (before /:id, so their paths are not read as a LoRA id) ------------------
    r.post('/categories', { access: 'admin', response: CategoryResponse }, async (req, res) => {
      const category = await loras.createCategory(actorOf(req), parse(CategoryBody, req.body));
      res.status(201);
      return { category };
    });
    r.patch('/categories/:id', { access: 'admin', response: CategoryResponse }, async (req) => ({
      category: await loras.patchCategory(actorOf(req), parse(LoraIdParams, req.params).id, parse(CategoryPatchBody, req.body)),
    }));
    r.delete('/categories/:id', { access: 'admin', response: NO_CONTENT }, async (req, res) => {
      await loras.deleteCategory(actorOf(req), parse(LoraIdParams, req.params).id);
      res.status(204);
    });
    r.put('/categories/:id/grants/:userId', { access: 'admin', response: MemberGrants }, async (req) => {
      const { id, userId } = parse(GrantParams, req.params);
      return loras.setCategoryGrant(actorOf(req), id, userId, parse(GrantBody, req.body).state);
    });

    // ---- members: grants and protections -----------------------------------------------------
    r.get('/members/:userId', { access: 'admin', response: MemberGrants }, (req) => loras.memberGrants(actorOf(req), parse(MemberParams, req.params).userId));
    r.get('/members/:userId/protections', { access: 'admin', response: Protections }, (req) => loras.getProtections(actorOf(req), parse(MemberParams, req.params).userId));
    r.patch('/members/:userId/protections', { access: 'admin', response: Protections }, (req) =>
      loras.patchProtections(actorOf(req), parse(MemberParams, req.params).userId, parse(ProtectionsPatchBody, req.body)),
    );

    // ---- one LoRA ----------------------------------------------------------------------------
    r.get('/:id', { access: 'admin', response: AdminLoraResponse }, async (req) => ({ lora: await loras.adminGet(actorOf(req), parse(LoraIdParams, req.params).id) }));
    r.patch('/:id', { access: 'admin', response: AdminLoraResponse }, async (req) => ({
      lora: await loras.patch(actorOf(req), parse(LoraIdParams, req.params).id, parse(LoraPatchBody, req.body)),
    }));
    r.delete('/:id', { access: 'admin', response: NO_CONTENT }, async (req, res) => {
      await loras.delete(actorOf(req), parse(LoraIdParams, req.params).id);
      res.status(204);
    });
    r.put('/:id/grants/:userId', { access: 'admin', response: MemberGrants }, async (req) => {
      const { id, userId } = parse(GrantParams, req.params);
      return loras.setLoraGrant(actorOf(req), id, userId, parse(GrantBody, req.body).state);
    });
  });
}

export function createImageEngineAdminRoutes(engine: ImageEngineAdminService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'admin', response: EngineAdminResponse }, (req) => engine.admin(actorOf(req)));
    r.put('/', { access: 'admin', response: EngineAdminResponse }, (req) => engine.update(actorOf(req), parse(EngineConfigBody, req.body)));
    r.post('/retry', { access: 'admin', response: EngineAdminResponse }, (req) => engine.retry(actorOf(req)));
    r.get('/logs', { access: 'admin', response: EngineLogsResponse }, async (req) => ({ lines: await engine.logs(actorOf(req), parse(EngineLogsQuery, req.query).lines) }));
  });
}
