// The household's LoRAs: what a member may use (default deny: granted directly or through a granted,
// enabled category; admins every enabled one; never a LoRA whose file is gone), the admin's LoRA and
// category management, importing a file and re-registering files found on disk, per-member grants
// and each member's image protections (an admin's alone to set).
import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { assertAdmin, isAdmin, SYSTEM_ACTOR, type Actor, type UserActor } from '../../actor.js';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { DiskSpace } from '../../platform/disk.js';
import type { ImageEngineConfig } from './engine-config.js';
import type { ImageFiles } from './files.js';
import { allowedLoras, type LoraAccess, type LoraCandidate } from './prompt.js';
import { assertLoraFileName, baseFamilyOf, checkLoraFile, loraInfoFromMetadata, readSafetensorsFile } from './safetensors.js';
import type { AdminLora, GrantState, LoraCategory, LoraPatchBody, MemberGrants, MemberLora, Protections } from './schema.js';
import type { CategoryRecord, ImageLorasStore, LoraRecord } from './loras-store.js';
import type { LoraRegistration } from './hub-service.js';
import type { ImageGenPorts } from './ports.js';

export interface ImageLorasDeps {
  store: ImageLorasStore;
  files: ImageFiles;
  engine: ImageEngineConfig;
  clock: Clock;
  /** The household's members (a grant names one that exists). */
  users: { getUser(id: string): Promise<{ id: string; role: string } | null> };
  /** The content module: protections are read from the member's content dials. */
  content: ImageGenPorts['content'];
  /** The reserve check every large write makes (an imported file must leave it free). */
  disk: DiskSpace;
}

/** An import-file upload on its way: the temp file in the loras folder. */
export interface PendingLoraImport {
  tempPath: string;
}

const notFound = () => new NotFoundError('That LoRA is not in the household any more.');
const categoryNotFound = () => new NotFoundError('That category is not there any more.');
const memberNotFound = () => new NotFoundError('That member is not in the household.');
const adultBlocked = (what: string) =>
  new ConflictError('adult_lora_blocked', `${what} is for adults, and this member's protections block adult LoRAs. Change their protections first if that is what you want.`);

export class ImageLorasService {
  constructor(private readonly deps: ImageLorasDeps) {}

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  // ---- what a member may use ---------------------------------------------------------------
  async protections(userId: string): Promise<Protections> {
    return this.deps.content.imageProtections(userId);
  }

  /** Every LoRA as the prompt pipeline takes it, with whether its file is on disk. */
  async candidates(): Promise<{ candidates: LoraCandidate[]; rows: LoraRecord[] }> {
    const rows = await this.deps.store.loras();
    const sizes = await Promise.all(rows.map((r) => this.deps.files.loraSize(r.filePath)));
    const candidates = rows.map((r, i) => ({
      id: r.id,
      name: r.name,
      file: r.filePath,
      fileExists: sizes[i] !== null,
      enabled: r.enabled,
      categoryId: r.categoryId,
      triggerTokens: r.triggerTokens,
      defaultWeight: r.defaultWeight,
      minWeight: r.minWeight,
      maxWeight: r.maxWeight,
      isAdult: r.isAdult,
      isStylistic: r.isStylistic,
      styleLabel: r.styleLabel,
      whenToUse: r.whenToUse,
      exampleRequests: r.exampleRequests,
    }));
    return { candidates, rows };
  }

  /**
   * The member's grants and protections as the prompt pipeline reads them (only enabled categories
   * count). Adult LoRAs need the `adult` level and the session's adult state, admins' too.
   */
  async access(actor: UserActor): Promise<LoraAccess> {
    const [loraGrants, categoryGrants, categories, protections, adultState] = await Promise.all([
      this.deps.store.loraGrants(actor.id),
      this.deps.store.categoryGrants(actor.id),
      this.deps.store.categories(),
      this.protections(actor.id),
      this.deps.content.adultStateOn(actor),
    ]);
    const enabled = new Set(categories.filter((c) => c.enabled).map((c) => c.id));
    return {
      isAdmin: isAdmin(actor),
      blockAdultLoras: protections.blockAdultLoras || !adultState,
      loraGrants: Object.fromEntries(loraGrants.map((g) => [g.loraId, g.state === 'on'])),
      categoryGrants: Object.fromEntries(categoryGrants.filter((g) => enabled.has(g.categoryId)).map((g) => [g.categoryId, g.state === 'on'])),
    };
  }

  /** GET /api/image/loras: the LoRAs this member may use whose files exist. */
  async memberLoras(actor: UserActor): Promise<MemberLora[]> {
    const [{ candidates, rows }, access, categories] = await Promise.all([this.candidates(), this.access(actor), this.deps.store.categories()]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    return allowedLoras(candidates, access)
      .filter((c) => c.fileExists)
      .map((c) => toMemberLora(byId.get(c.id)!, categories));
  }

  // ---- admin: LoRAs ------------------------------------------------------------------------
  async adminList(actor: Actor): Promise<{ loras: AdminLora[]; categories: LoraCategory[] }> {
    assertAdmin(actor);
    const [rows, categories] = await Promise.all([this.deps.store.loras(), this.deps.store.categories()]);
    const sizes = await Promise.all(rows.map((r) => this.deps.files.loraSize(r.filePath)));
    return { loras: rows.map((r, i) => toAdminLora(r, categories, sizes[i] ?? null)), categories: categories.map(toCategory) };
  }

  async adminGet(actor: Actor, id: string): Promise<AdminLora> {
    assertAdmin(actor);
    const row = await this.deps.store.lora(id);
    if (!row) throw notFound();
    return toAdminLora(row, await this.deps.store.categories(), await this.deps.files.loraSize(row.filePath));
  }

  async patch(actor: Actor, id: string, body: LoraPatchBody): Promise<AdminLora> {
    assertAdmin(actor);
    const row = await this.deps.store.lora(id);
    if (!row) throw notFound();
    if (body.categoryId && !(await this.deps.store.category(body.categoryId))) throw new BadRequestError('That category does not exist. Choose one from the list.');
    const min = body.minWeight ?? row.minWeight;
    const max = body.maxWeight ?? row.maxWeight;
    if (min > max) throw new BadRequestError('The lowest weight must not be above the highest weight.');
    await this.deps.store.updateLora(id, { ...body, updatedAt: this.now() });
    return this.adminGet(actor, id);
  }

  /** Removes the LoRA and its file (otherwise recover-disk would bring it back). */
  async delete(actor: Actor, id: string): Promise<void> {
    assertAdmin(actor);
    const row = await this.deps.store.lora(id);
    if (!row) throw notFound();
    await this.deps.store.deleteLora(id);
    await this.deps.files.removeLora(row.filePath);
  }

  /**
   * Where an uploaded file is written while it arrives (in the loras folder, so the final rename
   * stays on one disk), once the disk holds the `bytes` the upload declared beside its reserve (507).
   */
  async prepareImport(actor: Actor, bytes = 0): Promise<PendingLoraImport> {
    assertAdmin(actor);
    const dir = await this.deps.files.loraDir();
    await this.deps.disk.ensureRoom(dir, bytes, { what: 'This LoRA file' });
    await mkdir(dir, { recursive: true });
    return { tempPath: path.join(dir, `.hearth-upload-${randomUUID()}.part`) };
  }

  async abandonImport(pending: PendingLoraImport): Promise<void> {
    await rm(pending.tempPath, { force: true });
  }

  /** The uploaded file becomes a LoRA: the check the hub's import makes too (.safetensors only, its header read and checked), trigger words and base family from it. */
  async finishImport(actor: Actor, pending: PendingLoraImport, upload: { filename: string | null; bytes: number }): Promise<AdminLora> {
    assertAdmin(actor);
    try {
      const name = (upload.filename ?? '').trim();
      const notLora = () => new BadRequestError('Choose a LoRA file: its name ends in .safetensors.');
      assertLoraFileName(name, notLora);
      if (name.startsWith('.')) throw notLora();
      if (upload.bytes === 0) throw new BadRequestError('That file is empty. Choose the LoRA file again.');
      const target = await this.deps.files.loraPath(name);
      if (!target) throw new BadRequestError('That file name cannot be used. Rename the file and try again.');
      if ((await this.deps.files.loraSize(name)) !== null || (await this.deps.store.loraByFile(name))) {
        throw new ConflictError('lora_exists', `A LoRA file named ${name} is already in the household. Rename the file if it is a different one.`);
      }
      // the hub's import makes the same check: 422 invalid_safetensors for a damaged header (the file is removed below)
      const { metadata: meta } = await checkLoraFile(name, pending.tempPath, notLora);
      await rename(pending.tempPath, target);
      const id = await this.register(name, upload.bytes, meta);
      return this.adminGet(actor, id);
    } catch (err) {
      await this.abandonImport(pending);
      throw err;
    }
  }

  /** Files in the loras folder without a row are registered (after a copy by hand, or a lost database). */
  async recoverDisk(actor: Actor): Promise<AdminLora[]> {
    assertAdmin(actor);
    const known = new Set((await this.deps.store.loras()).map((r) => r.filePath));
    const added: string[] = [];
    for (const name of await this.deps.files.loraFiles()) {
      if (known.has(name) || name.startsWith('.')) continue;
      let meta: Record<string, string> | null = null;
      const p = await this.deps.files.loraPath(name);
      if (p && name.toLowerCase().endsWith('.safetensors')) meta = await readSafetensorsFile(p).then((h) => h.metadata).catch(() => null);
      added.push(await this.register(name, (await this.deps.files.loraSize(name)) ?? 0, meta));
    }
    const categories = await this.deps.store.categories();
    const rows = await Promise.all(added.map((id) => this.deps.store.lora(id)));
    return Promise.all(rows.filter((r): r is LoraRecord => r !== null).map(async (r) => toAdminLora(r, categories, await this.deps.files.loraSize(r.filePath))));
  }

  // ---- the model hub's registry (hub-service.ts's LoraRegistry) ------------------------------------
  /** A file the hub's import put in the loras folder becomes a LoRA with the hub's own facts. */
  async registerFromHub(input: LoraRegistration): Promise<AdminLora> {
    const at = this.now();
    const id = randomUUID();
    await this.deps.store.insertLora({
      id,
      name: input.name.slice(0, 120),
      filePath: input.fileName,
      fileBytes: input.fileBytes,
      triggerTokens: input.triggerTokens,
      defaultWeight: 0.8,
      minWeight: 0,
      maxWeight: 1.5,
      categoryId: null,
      styleLabel: null,
      isStylistic: false,
      isAdult: input.isAdult,
      // usable by admins at once; members only once granted (default deny)
      enabled: true,
      whenToUse: input.whenToUse,
      exampleRequests: [],
      externalId: input.externalId,
      baseFamilies: input.baseFamilies,
      createdAt: at,
      updatedAt: at,
    });
    return this.adminGet(SYSTEM_ACTOR, id);
  }

  async findByExternalId(externalId: string): Promise<AdminLora | null> {
    const row = await this.deps.store.loraByExternalId(externalId);
    return row ? this.adminGet(SYSTEM_ACTOR, row.id) : null;
  }

  private async register(fileName: string, bytes: number, meta: Record<string, string> | null): Promise<string> {
    const info = meta ? loraInfoFromMetadata(meta) : null;
    const family = info?.baseFamily ?? baseFamilyOf(await this.deps.engine.checkpoint());
    const at = this.now();
    const id = randomUUID();
    await this.deps.store.insertLora({
      id,
      name: (info?.title ?? fileName.replace(/\.(safetensors|ckpt|pt)$/i, '')).slice(0, 120),
      filePath: fileName,
      fileBytes: bytes,
      triggerTokens: info?.triggerWords ?? [],
      defaultWeight: 0.8,
      minWeight: 0,
      maxWeight: 1.5,
      categoryId: null,
      styleLabel: null,
      isStylistic: false,
      isAdult: false,
      // a new LoRA is usable by admins at once; members only once granted (default deny)
      enabled: true,
      whenToUse: null,
      exampleRequests: [],
      externalId: null,
      baseFamilies: family ? [family] : [],
      createdAt: at,
      updatedAt: at,
    });
    return id;
  }

  // ---- admin: categories -------------------------------------------------------------------
  async createCategory(actor: Actor, body: { name: string; sortOrder?: number; enabled?: boolean }): Promise<LoraCategory> {
    assertAdmin(actor);
    if (await this.deps.store.categoryNamed(body.name)) throw new ConflictError('category_exists', `There is already a category called ${body.name}.`);
    const id = randomUUID();
    await this.deps.store.insertCategory({ id, name: body.name, sortOrder: body.sortOrder ?? (await this.deps.store.nextCategoryOrder()), enabled: body.enabled ?? true, createdAt: this.now() });
    return toCategory((await this.deps.store.category(id))!);
  }

  async patchCategory(actor: Actor, id: string, body: { name?: string; sortOrder?: number; enabled?: boolean }): Promise<LoraCategory> {
    assertAdmin(actor);
    if (!(await this.deps.store.category(id))) throw categoryNotFound();
    if (body.name !== undefined) {
      const other = await this.deps.store.categoryNamed(body.name);
      if (other && other.id !== id) throw new ConflictError('category_exists', `There is already a category called ${body.name}.`);
    }
    await this.deps.store.updateCategory(id, body);
    return toCategory((await this.deps.store.category(id))!);
  }

  /** The category goes; its LoRAs stay, without a category (and its grants go with it). */
  async deleteCategory(actor: Actor, id: string): Promise<void> {
    assertAdmin(actor);
    if (!(await this.deps.store.category(id))) throw categoryNotFound();
    await this.deps.store.deleteCategory(id);
  }

  // ---- admin: grants and protections -------------------------------------------------------
  private async member(userId: string): Promise<void> {
    if (!(await this.deps.users.getUser(userId))) throw memberNotFound();
  }

  async memberGrants(actor: Actor, userId: string): Promise<MemberGrants> {
    assertAdmin(actor);
    await this.member(userId);
    const [loras, categories, protections] = await Promise.all([this.deps.store.loraGrants(userId), this.deps.store.categoryGrants(userId), this.protections(userId)]);
    return { userId, loras, categories, protections };
  }

  async setLoraGrant(actor: Actor, loraId: string, userId: string, state: GrantState | null): Promise<MemberGrants> {
    assertAdmin(actor);
    const lora = await this.deps.store.lora(loraId);
    if (!lora) throw notFound();
    await this.member(userId);
    if (state === 'on' && lora.isAdult && (await this.protections(userId)).blockAdultLoras) throw adultBlocked(`${lora.name}`);
    await this.deps.store.setLoraGrant(userId, loraId, state, this.now());
    return this.memberGrants(actor, userId);
  }

  async setCategoryGrant(actor: Actor, categoryId: string, userId: string, state: GrantState | null): Promise<MemberGrants> {
    assertAdmin(actor);
    const category = await this.deps.store.category(categoryId);
    if (!category) throw categoryNotFound();
    await this.member(userId);
    if (state === 'on' && category.hasAdult && (await this.protections(userId)).blockAdultLoras) throw adultBlocked(`The category ${category.name} holds a LoRA that`);
    await this.deps.store.setCategoryGrant(userId, categoryId, state, this.now());
    return this.memberGrants(actor, userId);
  }

  async getProtections(actor: Actor, userId: string): Promise<Protections> {
    assertAdmin(actor);
    await this.member(userId);
    return this.protections(userId);
  }

  /** An admin sets another member's protections; nobody changes their own (an admin asks another admin). */
  async patchProtections(actor: Actor, userId: string, body: Partial<Protections>): Promise<Protections> {
    assertAdmin(actor);
    await this.member(userId);
    if (actor.kind === 'user' && actor.id === userId) throw new ForbiddenError('You cannot change your own image protections. Another admin can change them for you.', 'own_protections');
    return this.deps.content.setImageProtections(actor, userId, body);
  }
}

function categoryRef(categories: readonly CategoryRecord[], id: string | null): { id: string; name: string } | null {
  const c = id ? categories.find((x) => x.id === id) : undefined;
  return c ? { id: c.id, name: c.name } : null;
}

function toMemberLora(r: LoraRecord, categories: readonly CategoryRecord[]): MemberLora {
  return {
    id: r.id,
    name: r.name,
    triggerTokens: r.triggerTokens,
    defaultWeight: r.defaultWeight,
    minWeight: r.minWeight,
    maxWeight: r.maxWeight,
    styleLabel: r.styleLabel,
    isStylistic: r.isStylistic,
    isAdult: r.isAdult,
    whenToUse: r.whenToUse,
    category: categoryRef(categories, r.categoryId),
  };
}

function toAdminLora(r: LoraRecord, categories: readonly CategoryRecord[], size: number | null): AdminLora {
  return {
    ...toMemberLora(r, categories),
    filePath: r.filePath,
    fileBytes: r.fileBytes,
    fileExists: size !== null,
    enabled: r.enabled,
    exampleRequests: r.exampleRequests,
    externalId: r.externalId,
    baseFamilies: r.baseFamilies as AdminLora['baseFamilies'],
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

function toCategory(c: CategoryRecord): LoraCategory {
  return { id: c.id, name: c.name, sortOrder: c.sortOrder, enabled: c.enabled, loraCount: c.loraCount, hasAdult: c.hasAdult };
}
