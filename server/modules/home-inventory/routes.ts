// /api/home: the household inventory's devices, photos and files, links, service log and
// warranties, thin over the inventory services (the identify/ask and lookup parts mount their own
// routers on /home after this one).
import type { Request } from 'express';
import { actorOf } from '../../http/auth.js';
import { bytes, defineRoutes, NO_CONTENT } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import type { HomeDeviceFilesService } from './device-files-service.js';
import { readRawBody } from '../../http/body.js';
import { receiveFormFile, receiveUpload, sendFile } from './http-io.js';
import {
  CreateDeviceBody,
  CreateLinkBody,
  DeviceIdParams,
  DeviceResponse,
  DevicesQuery,
  DevicesResponse,
  ExportQuery,
  FileCommentBody,
  FileCommentParams,
  FileParams,
  FileResponse,
  FilesResponse,
  ImportResponse,
  LinkParams,
  LinkResponse,
  LinksResponse,
  MAX_IMPORT_BYTES,
  MAX_UPLOAD_BYTES,
  PatchDeviceBody,
  PatchServiceEntryBody,
  ServiceEntryBody,
  ServiceEntryResponse,
  ServiceLogResponse,
  ServiceParams,
  SetMainPhotoBody,
  UploadFields,
  WarrantiesQuery,
  WarrantiesResponse,
} from './schema.js';
import type { HomeDevicesService } from './service.js';
import type { HomeTransferService } from './transfer-service.js';
import type { HomeWarrantiesService } from './warranties-service.js';
import { BadRequestError } from '../../errors.js';
import { z } from 'zod';

/** The inventory's services, as the container wires them. */
export interface HomeInventoryServices {
  devices: HomeDevicesService;
  files: HomeDeviceFilesService;
  warranties: HomeWarrantiesService;
  transfer: HomeTransferService;
}

const ThumbQuery = z.object({ thumb: z.enum(['1', '0', 'true', 'false']).optional() });
const wantsThumb = (req: Request) => {
  const t = parse(ThumbQuery, req.query).thumb;
  return t === '1' || t === 'true';
};
const idOf = (req: Request) => parse(DeviceIdParams, req.params).id;

export function createHomeInventoryRoutes(home: HomeInventoryServices, opts: { maxUploadBytes?: number } = {}) {
  const maxUpload = opts.maxUploadBytes ?? MAX_UPLOAD_BYTES;
  return defineRoutes((r) => {
    // ---- devices ---------------------------------------------------------------------------
    r.get('/devices', { access: 'user', response: DevicesResponse }, (req) => home.devices.list(actorOf(req), parse(DevicesQuery, req.query)));
    r.post('/devices', { access: 'user', response: DeviceResponse }, async (req, res) => {
      const device = await home.devices.create(actorOf(req), parse(CreateDeviceBody, req.body));
      res.status(201);
      return { device };
    });
    r.get('/devices/:id', { access: 'user', response: DeviceResponse }, async (req) => ({ device: await home.devices.get(actorOf(req), idOf(req)) }));
    r.patch('/devices/:id', { access: 'user', response: DeviceResponse }, async (req) => ({
      device: await home.devices.patch(actorOf(req), idOf(req), parse(PatchDeviceBody, req.body)),
    }));
    r.delete('/devices/:id', { access: 'user', response: NO_CONTENT }, async (req, res) => {
      await home.devices.delete(actorOf(req), idOf(req));
      res.status(204);
    });

    // ---- photos and files ------------------------------------------------------------------
    r.get('/devices/:id/photo', { access: 'user', response: bytes('the main photo (image/jpeg, png or webp), or with ?thumb=1 its webp thumbnail') }, async (req, res) => {
      await sendFile(res, await home.files.photo(actorOf(req), idOf(req), wantsThumb(req)));
    });
    r.post('/devices/:id/set-main-photo', { access: 'user', response: DeviceResponse }, async (req) => {
      const actor = actorOf(req);
      const id = idOf(req);
      await home.files.setMainPhoto(actor, id, parse(SetMainPhotoBody, req.body).fileId);
      return { device: await home.devices.get(actor, id) };
    });
    r.get('/devices/:id/files', { access: 'user', response: FilesResponse }, async (req) => ({ files: await home.files.list(actorOf(req), idOf(req)) }));
    r.post('/devices/:id/files', { access: 'user', jsonLimit: false, response: FileResponse }, async (req, res) => {
      const actor = actorOf(req);
      const pending = await home.files.prepareUpload(actor, idOf(req));
      let received;
      try {
        received = await receiveUpload(req, pending.tempPath, maxUpload);
        received.fields = parse(UploadFields, received.fields);
      } catch (err) {
        await home.files.abandonUpload(pending);
        throw err;
      }
      const file = await home.files.finishUpload(actor, pending, received);
      res.status(201);
      return { file };
    });
    r.get('/devices/:id/files/:fid', { access: 'user', response: bytes('the stored file with its own type (inline for photos and PDFs, else an attachment); ?thumb=1 a photo\'s webp thumbnail') }, async (req, res) => {
      const { id, fid } = parse(FileParams, req.params);
      await sendFile(res, await home.files.open(actorOf(req), id, fid, wantsThumb(req)));
    });
    r.delete('/devices/:id/files/:fid', { access: 'user', response: NO_CONTENT }, async (req, res) => {
      const { id, fid } = parse(FileParams, req.params);
      await home.files.delete(actorOf(req), id, fid);
      res.status(204);
    });
    r.patch('/devices/:id/files/:fileId/comment', { access: 'user', response: FileResponse }, async (req) => {
      const { id, fileId } = parse(FileCommentParams, req.params);
      return { file: await home.files.setComment(actorOf(req), id, fileId, parse(FileCommentBody, req.body).comment ?? null) };
    });
    r.get('/devices/:id/manual', { access: 'user', response: bytes('application/pdf (the cached manual, inline)') }, async (req, res) => {
      await sendFile(res, await home.files.manual(actorOf(req), idOf(req)));
    });

    // ---- links -----------------------------------------------------------------------------
    r.get('/devices/:id/links', { access: 'user', response: LinksResponse }, async (req) => ({ links: await home.devices.links(actorOf(req), idOf(req)) }));
    r.post('/devices/:id/links', { access: 'user', response: LinkResponse }, async (req, res) => {
      const link = await home.devices.addLink(actorOf(req), idOf(req), parse(CreateLinkBody, req.body));
      res.status(201);
      return { link };
    });
    r.delete('/devices/:id/links/:linkId', { access: 'user', response: NO_CONTENT }, async (req, res) => {
      const { id, linkId } = parse(LinkParams, req.params);
      await home.devices.deleteLink(actorOf(req), id, linkId);
      res.status(204);
    });

    // ---- service log -----------------------------------------------------------------------
    r.get('/devices/:id/service', { access: 'user', response: ServiceLogResponse }, async (req) => ({ entries: await home.devices.serviceLog(actorOf(req), idOf(req)) }));
    r.post('/devices/:id/service', { access: 'user', response: ServiceEntryResponse }, async (req, res) => {
      const entry = await home.devices.addService(actorOf(req), idOf(req), parse(ServiceEntryBody, req.body));
      res.status(201);
      return { entry };
    });
    r.patch('/devices/:id/service/:entryId', { access: 'user', response: ServiceEntryResponse }, async (req) => {
      const { id, entryId } = parse(ServiceParams, req.params);
      return { entry: await home.devices.patchService(actorOf(req), id, entryId, parse(PatchServiceEntryBody, req.body)) };
    });
    r.delete('/devices/:id/service/:entryId', { access: 'user', response: NO_CONTENT }, async (req, res) => {
      const { id, entryId } = parse(ServiceParams, req.params);
      await home.devices.deleteService(actorOf(req), id, entryId);
      res.status(204);
    });

    // ---- warranties ------------------------------------------------------------------------
    r.get('/warranties', { access: 'user', response: WarrantiesResponse }, (req) => home.warranties.list(actorOf(req), parse(WarrantiesQuery, req.query).days));

    // ---- moving in and out -----------------------------------------------------------------
    r.get('/export', { access: 'user', response: bytes('application/json (every device with its files\' labels, links and service log) or with ?format=homebox a Homebox CSV, as an attachment') }, async (req, res) => {
      const { format } = parse(ExportQuery, req.query);
      const actor = actorOf(req);
      if (format === 'homebox') {
        const csv = await home.transfer.exportHomebox(actor);
        res.set({ 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'attachment; filename="hearth-inventory-homebox.csv"', 'X-Content-Type-Options': 'nosniff' }).send(csv);
        return;
      }
      const data = await home.transfer.exportJson(actor);
      res.set({ 'Content-Type': 'application/json; charset=utf-8', 'Content-Disposition': 'attachment; filename="hearth-inventory.json"', 'X-Content-Type-Options': 'nosniff' }).send(JSON.stringify(data, null, 2));
    });
    r.post('/import', { access: 'user', jsonLimit: false, response: ImportResponse }, async (req) => {
      const type = req.get('content-type') ?? '';
      let body: Buffer;
      if (/^multipart\/form-data/i.test(type)) body = await receiveFormFile(req, MAX_IMPORT_BYTES);
      else if (/^(text\/(csv|plain|tab-separated-values)|application\/(csv|octet-stream))/i.test(type)) body = await readRawBody(req, MAX_IMPORT_BYTES, `That file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB.`);
      else {
        req.resume();
        throw new BadRequestError('Send the Homebox CSV file as a form upload, or as a text/csv body.');
      }
      if (body.length === 0) throw new BadRequestError('The file is empty. Export the items from Homebox and upload that file.');
      return home.transfer.importHomebox(actorOf(req), body.toString('utf8'));
    });
  });
}
