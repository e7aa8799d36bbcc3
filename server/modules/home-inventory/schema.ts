// The home inventory's contract (/api/home): the household's devices, which every signed-in
// member sees and edits (whoever added a device, or an admin, may delete it), their photos and
// files, links, service log, warranties, the identify pipeline (label photo -> fields for review),
// the web lookup (manual, support page, product photos, videos) and Ask the manual. The web app
// imports these types.
import { z } from 'zod';

// ---- limits ----------------------------------------------------------------------------------
export const MAX_NAME_CHARS = 120;
export const MAX_FIELD_CHARS = 200;
export const MAX_NOTES_CHARS = 4_000;
export const MAX_SPECS = 60;
export const MAX_SPEC_KEY_CHARS = 60;
export const MAX_SPEC_VALUE_CHARS = 300;
/** One uploaded photo or file (multipart, streamed to disk). */
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
/** A manual PDF fetched by the web lookup. */
export const MAX_MANUAL_BYTES = 50 * 1024 * 1024;
/** Files (photos included) on one device. */
export const MAX_FILES_PER_DEVICE = 60;
/** Product photos the web lookup stores. */
export const MAX_LOOKUP_PHOTOS = 3;
/** Manual text given to Ask. */
export const ASK_MANUAL_BYTES = 8 * 1024;
/** The chat tool's manual extract: top paragraphs and its cap; the cap is also the extract with no question. */
export const TOOL_MANUAL_PARAGRAPHS = 3;
export const TOOL_MANUAL_BYTES = 4 * 1024;
/** Devices the chat tool lists for a query. */
export const TOOL_MAX_RESULTS = 10;
export const MAX_QUESTION_CHARS = 1_000;
/** How often the web app polls the list while any device is pending. */
export const LOOKUP_POLL_MS = 3_000;
/** Warranty reminders, in days before the end date. */
export const WARRANTY_NUDGE_DAYS = [30, 7] as const;
/** Default window of GET /warranties. */
export const DEFAULT_WARRANTY_DAYS = 60;
export const MAX_WARRANTY_DAYS = 3650;
/** Rows in a Homebox CSV import. */
export const MAX_IMPORT_ROWS = 5_000;
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;
/** Columns in a Homebox CSV import (Homebox writes 24 and one per custom field). */
export const MAX_IMPORT_COLUMNS = 1_000;
/** Thumbnails: longest side in pixels. */
export const THUMB_PX = 480;

// ---- enums -----------------------------------------------------------------------------------
export const DeviceCategory = z.enum(['appliance', 'electronics', 'vehicle', 'tool', 'furniture', 'other']);
export type DeviceCategory = z.infer<typeof DeviceCategory>;
/** pending (a lookup is running or queued), complete, failed (the reason kept), skipped (no brand or model, no web search configured, or offline mode). */
export const LookupStatus = z.enum(['pending', 'complete', 'failed', 'skipped']);
export type LookupStatus = z.infer<typeof LookupStatus>;
export const ServiceType = z.enum(['repair', 'maintenance', 'inspection', 'upgrade', 'other']);
export type ServiceType = z.infer<typeof ServiceType>;
export const FileType = z.enum(['pdf', 'image', 'other']);
export type FileType = z.infer<typeof FileType>;
export const FileSource = z.enum(['user', 'ai']);
export type FileSource = z.infer<typeof FileSource>;
export const LinkCategory = z.enum(['manual', 'support', 'download', 'video', 'other']);
export type LinkCategory = z.infer<typeof LinkCategory>;
/** none (no end date), active, expiring (within the window asked, default 60 days), expired. */
export const WarrantyStatus = z.enum(['none', 'active', 'expiring', 'expired']);
export type WarrantyStatus = z.infer<typeof WarrantyStatus>;

// ---- field shapes ----------------------------------------------------------------------------
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date like 2026-03-31.');
const text = (max = MAX_FIELD_CHARS) => z.string().trim().max(max);
/** An optional text field in a request: empty means cleared. */
const optText = (max = MAX_FIELD_CHARS) =>
  text(max)
    .nullable()
    .optional()
    .transform((v) => (v === '' ? null : v));
const optDate = isoDate.or(z.literal('')).nullable().optional().transform((v) => (v === '' ? null : v));
const httpUrl = z
  .string()
  .trim()
  .max(2048)
  .url()
  .refine((u) => /^https?:\/\//i.test(u), 'Use a web address starting with http:// or https://.');
export const Specs = z
  .record(z.string().trim().min(1).max(MAX_SPEC_KEY_CHARS), z.string().trim().max(MAX_SPEC_VALUE_CHARS))
  .refine((s) => Object.keys(s).length <= MAX_SPECS, `At most ${MAX_SPECS} specifications.`);
export type Specs = z.infer<typeof Specs>;

// ---- records ---------------------------------------------------------------------------------
export const DeviceFile = z.object({
  id: z.string(),
  deviceId: z.string(),
  label: z.string(),
  fileType: FileType,
  contentType: z.string(),
  bytes: z.number().int(),
  source: FileSource,
  comment: z.string().nullable(),
  /** GET /api/home/devices/:id/files/:fid (add ?thumb=1 for an image's thumbnail). */
  url: z.string(),
  /** Images only. */
  thumbUrl: z.string().nullable(),
  createdAt: z.string(),
});
export type DeviceFile = z.infer<typeof DeviceFile>;

export const DeviceLink = z.object({
  id: z.string(),
  deviceId: z.string(),
  category: LinkCategory,
  label: z.string(),
  url: z.string(),
  source: FileSource,
  createdAt: z.string(),
});
export type DeviceLink = z.infer<typeof DeviceLink>;

export const ServiceEntry = z.object({
  id: z.string(),
  deviceId: z.string(),
  date: z.string(),
  type: ServiceType,
  description: z.string(),
  technician: z.string().nullable(),
  cost: z.number().nullable(),
  createdAt: z.string(),
});
export type ServiceEntry = z.infer<typeof ServiceEntry>;

/** A device as lists show it (no manual text, no label text). */
export const DeviceSummary = z.object({
  id: z.string(),
  name: z.string(),
  brand: z.string().nullable(),
  model: z.string().nullable(),
  serialNumber: z.string().nullable(),
  category: DeviceCategory,
  location: z.string().nullable(),
  owner: z.string().nullable(),
  purchaseDate: z.string().nullable(),
  warrantyExpires: z.string().nullable(),
  warrantyStatus: WarrantyStatus,
  /** The main photo's thumbnail (GET /api/home/devices/:id/photo?thumb=1), null without a photo. */
  photoUrl: z.string().nullable(),
  lookupStatus: LookupStatus,
  hasManual: z.boolean(),
  /** Whoever added it or an admin. */
  canDelete: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type DeviceSummary = z.infer<typeof DeviceSummary>;

export const Device = DeviceSummary.extend({
  rawLabelText: z.string().nullable(),
  specs: z.record(z.string(), z.string()),
  /** When it was made, as the label says it (2023-04, "week 14, 2023"). */
  manufacturedDate: z.string().nullable(),
  /** Where it was made ("Germany"), kept apart from the date. */
  countryOfOrigin: z.string().nullable(),
  purchasePrice: z.number().nullable(),
  purchaseStore: z.string().nullable(),
  warrantyNotes: z.string().nullable(),
  supportUrl: z.string().nullable(),
  supportPhone: z.string().nullable(),
  manualUrl: z.string().nullable(),
  /** Characters of extracted manual text (the text itself is not sent: Ask and the manual viewer use it). */
  manualTextChars: z.number().int(),
  manualFetchedAt: z.string().nullable(),
  mainPhotoId: z.string().nullable(),
  /** A sentence: why the last lookup failed or was skipped; null otherwise. */
  lookupError: z.string().nullable(),
  lookupQueuedAt: z.string().nullable(),
  notes: z.string().nullable(),
  createdBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  files: z.array(DeviceFile),
  links: z.array(DeviceLink),
  serviceLog: z.array(ServiceEntry),
});
export type Device = z.infer<typeof Device>;

// ---- requests --------------------------------------------------------------------------------
export const DeviceIdParams = z.object({ id: z.string().min(1).max(100) });
export const FileParams = z.object({ id: z.string().min(1).max(100), fid: z.string().min(1).max(100) });
export const FileCommentParams = z.object({ id: z.string().min(1).max(100), fileId: z.string().min(1).max(100) });
export const LinkParams = z.object({ id: z.string().min(1).max(100), linkId: z.string().min(1).max(100) });
export const ServiceParams = z.object({ id: z.string().min(1).max(100), entryId: z.string().min(1).max(100) });

/** Devices per page of GET /devices (name order); the web app asks for the next page with `offset`. */
export const DEVICES_PAGE = 100;
export const MAX_DEVICES_PAGE = 500;
export const DevicesQuery = z.object({
  /** Words over name, brand, model, category and location. */
  q: z.string().trim().max(200).optional(),
  category: DeviceCategory.optional(),
  limit: z.coerce.number().int().min(1).max(MAX_DEVICES_PAGE).default(DEVICES_PAGE),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type DevicesQuery = z.infer<typeof DevicesQuery>;

const deviceFields = {
  brand: optText(),
  model: optText(),
  serialNumber: optText(),
  category: DeviceCategory.optional(),
  location: optText(),
  owner: optText(),
  rawLabelText: optText(8_000),
  specs: Specs.optional(),
  manufacturedDate: optText(40),
  countryOfOrigin: optText(60),
  purchaseDate: optDate,
  purchasePrice: z.number().min(0).max(10_000_000).nullable().optional(),
  purchaseStore: optText(),
  warrantyExpires: optDate,
  warrantyNotes: optText(1_000),
  supportUrl: httpUrl.or(z.literal('')).nullable().optional().transform((v) => (v === '' ? null : v)),
  supportPhone: optText(40),
  notes: optText(MAX_NOTES_CHARS),
};
export const CreateDeviceBody = z.strictObject({ name: text(MAX_NAME_CHARS).min(1, 'Give the device a name.'), ...deviceFields });
export type CreateDeviceBody = z.infer<typeof CreateDeviceBody>;
export const PatchDeviceBody = z
  .strictObject({ name: text(MAX_NAME_CHARS).min(1, 'Give the device a name.').optional(), ...deviceFields })
  .refine((b) => Object.keys(b).length > 0, 'Nothing to change.');
export type PatchDeviceBody = z.infer<typeof PatchDeviceBody>;

export const SetMainPhotoBody = z.strictObject({ fileId: z.string().min(1).max(100) });
export const FileCommentBody = z.strictObject({ comment: optText(1_000) });
/** Multipart fields sent beside the file on POST /devices/:id/files. */
export const UploadFields = z.object({
  label: text(MAX_FIELD_CHARS).optional(),
  comment: text(1_000).optional(),
  /** "main" makes an uploaded image the main photo. */
  role: z.enum(['main', 'photo', 'file']).optional(),
});
export const CreateLinkBody = z.strictObject({ category: LinkCategory.default('other'), label: text().min(1), url: httpUrl });
export const ServiceEntryBody = z.strictObject({
  date: isoDate,
  type: ServiceType,
  description: text(2_000).min(1, 'Say what was done.'),
  technician: optText(),
  cost: z.number().min(0).max(10_000_000).nullable().optional(),
});
export const PatchServiceEntryBody = ServiceEntryBody.partial().refine((b) => Object.keys(b).length > 0, 'Nothing to change.');
export const WarrantiesQuery = z.object({ days: z.coerce.number().int().min(1).max(MAX_WARRANTY_DAYS).default(DEFAULT_WARRANTY_DAYS) });
export const ExportQuery = z.object({ format: z.enum(['json', 'homebox']).default('json') });
export const IdentifyBody = z.strictObject({
  /** The label photo: one of the device's image files; default its main photo. */
  fileId: z.string().min(1).max(100).optional(),
});
export const AskBody = z.strictObject({ question: text(MAX_QUESTION_CHARS).min(1, 'Ask a question.') });

// ---- responses -------------------------------------------------------------------------------
export const DevicesResponse = z.object({
  devices: z.array(DeviceSummary),
  /** Every device per category (for the chips), whatever the filter. */
  categories: z.record(DeviceCategory, z.number().int()),
  /** Devices matching the filter, on every page. */
  total: z.number().int(),
  /** The next page's offset; null on the last page. */
  nextOffset: z.number().int().nullable(),
});
export type DevicesResponse = z.infer<typeof DevicesResponse>;
export const DeviceResponse = z.object({ device: Device });
export const FilesResponse = z.object({ files: z.array(DeviceFile) });
export const FileResponse = z.object({ file: DeviceFile });
export const LinksResponse = z.object({ links: z.array(DeviceLink) });
export const LinkResponse = z.object({ link: DeviceLink });
export const ServiceLogResponse = z.object({ entries: z.array(ServiceEntry) });
export const ServiceEntryResponse = z.object({ entry: ServiceEntry });
export const WarrantyRow = DeviceSummary.extend({ daysLeft: z.number().int() });
export const WarrantiesResponse = z.object({ today: z.string(), days: z.number().int(), expiring: z.array(WarrantyRow), expired: z.array(WarrantyRow) });
export const ImportResponse = z.object({
  imported: z.number().int(),
  skipped: z.array(z.object({ row: z.number().int(), reason: z.string() })),
});

/** What the identify pipeline read, for the member to review; nothing but rawLabelText is written until they save. */
export const IdentifiedFields = z.object({
  name: z.string().nullable(),
  brand: z.string().nullable(),
  model: z.string().nullable(),
  serialNumber: z.string().nullable(),
  category: DeviceCategory.nullable(),
  manufacturedDate: z.string().nullable(),
  countryOfOrigin: z.string().nullable(),
  labelSpecs: z.record(z.string(), z.string()),
  /** 0..1, the text model's own estimate (0 when only OCR answered). */
  confidence: z.number().min(0).max(1),
});
export type IdentifiedFields = z.infer<typeof IdentifiedFields>;
export const IdentifyResponse = z.object({
  fields: IdentifiedFields,
  rawLabelText: z.string(),
  /** Which passes answered: ocr (tesseract), transcription (vision model read the label), description (vision model), reconcile (text model). */
  passes: z.object({
    ocr: z.object({ chars: z.number().int(), confidence: z.number(), ms: z.number().int() }),
    transcription: z.boolean(),
    description: z.string().nullable(),
    reconcile: z.boolean(),
  }),
});
export type IdentifyResponse = z.infer<typeof IdentifyResponse>;
/** 503 model_runtime_unavailable from identify carries what OCR read in error.details. */
export const IdentifyUnavailableDetails = z.object({ rawLabelText: z.string(), fields: IdentifiedFields });

export const LookupResponse = z.object({ device: DeviceSummary });
export const GenerateSpecsResponse = z.object({ specs: z.record(z.string(), z.string()) });
/**
 * Maintenance intervals found in the manual ("replace the filter every 6 months"), proposed as
 * service-log entries to confirm: the member confirms one by POSTing it to
 * /devices/:id/service (type maintenance, the description, the date done); nothing is written by
 * GET /devices/:id/maintenance.
 */
export const MaintenanceSuggestion = z.object({
  id: z.string(),
  description: z.string(),
  /** e.g. "every 6 months" */
  interval: z.string(),
  intervalDays: z.number().int().nullable(),
  /** The manual sentence it came from. */
  quote: z.string(),
  /** When it is next due from the last matching entry (or today when never done). */
  dueDate: z.string().nullable(),
});
export type MaintenanceSuggestion = z.infer<typeof MaintenanceSuggestion>;
export const MaintenanceResponse = z.object({ suggestions: z.array(MaintenanceSuggestion) });

/** POST /devices/:id/ask: the answer streams as tokens; sources says which manual paragraphs were used. */
export const AskEvents = z.object({
  token: z.object({ text: z.string() }),
  sources: z.object({ manualParagraphs: z.number().int(), manualCovered: z.boolean() }),
  done: z.object({ status: z.enum(['complete', 'stopped']) }),
});
export type AskEvents = z.infer<typeof AskEvents>;

/** The web lookup's search engine: set up or not (everyone); its address and whether the app may change it (admins). */
export const WebSearchView = z.object({
  configured: z.boolean(),
  /** Admins only (null for members). */
  url: z.string().nullable(),
  /** Set where Hearth was started (it then wins and is read-only here). */
  setWhereHearthStarted: z.boolean(),
  canChange: z.boolean(),
});
export type WebSearchView = z.infer<typeof WebSearchView>;
export const WebSearchResponse = z.object({ webSearch: WebSearchView });
/** An address, or null (or empty) to remove it. */
export const SetWebSearchBody = z.object({ url: z.string().max(2_000).nullable() });
