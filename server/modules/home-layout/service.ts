// The Today/Home canvas: a per-user layout (falling back to the household default), a per-user
// lock, the admin-set default, and the read-time migration of the legacy home.highlights pref.
import { assertAdmin, type Actor, type UserActor } from '../../actor.js';
import type { AppSettingsStore, UserPreferencesStore } from '../../db/kv.js';
import { ForbiddenError, NotFoundError } from '../../errors.js';
import type { AuthService } from '../auth/service.js';
import {
  HomeLayout,
  KEY_DEFAULT,
  KEY_LAYOUT,
  KEY_LEGACY_HIGHLIGHTS,
  KEY_LOCKED,
  LegacyHighlights,
  type LayoutResponse,
  type SetUserLayoutBody,
} from './schema.js';

export interface HomeLayoutDeps {
  preferences: UserPreferencesStore;
  settings: AppSettingsStore;
  auth: AuthService;
  /** Shipped default (resources/data/default-home-layout.json), used until an admin sets one. */
  builtinDefault: HomeLayout;
  /** Whether Today is set up: the shipped default then starts with the Today widgets. */
  todaySetUp(): Promise<boolean>;
}

/** The Today widgets the shipped default starts with once Today is set up (the morning first). */
export const TODAY_ROWS: HomeLayout['canvas'] = [
  { id: 'row-today-weather', cols: [{ toolId: 'weather', colSpan: 1 }, { toolId: 'briefing', colSpan: 1 }] },
  { id: 'row-today-news', cols: [{ toolId: 'news', colSpan: 1 }, { toolId: 'on-this-day', colSpan: 1 }] },
];

export class HomeLayoutService {
  constructor(private readonly deps: HomeLayoutDeps) {}

  async getDefault(): Promise<HomeLayout> {
    const stored = HomeLayout.safeParse(await this.deps.settings.get(KEY_DEFAULT));
    if (stored.success) return stored.data;
    if (!(await this.deps.todaySetUp())) return this.deps.builtinDefault;
    const builtin = this.deps.builtinDefault;
    const known = new Set(builtin.canvas.flatMap((r) => r.cols.map((c) => c.toolId)));
    return { ...builtin, canvas: [...TODAY_ROWS.filter((r) => r.cols.every((c) => !known.has(c.toolId))), ...builtin.canvas] };
  }

  /** The layout a user sees: theirs, else the default with their legacy highlights folded in. */
  private async effective(userId: string): Promise<LayoutResponse> {
    const { preferences } = this.deps;
    const [own, locked] = await Promise.all([preferences.get(userId, KEY_LAYOUT), preferences.get(userId, KEY_LOCKED)]);
    const parsed = HomeLayout.safeParse(own);
    if (parsed.success) return { layout: parsed.data, locked: locked === true, custom: true };
    const layout = structuredClone(await this.getDefault());
    const legacy = LegacyHighlights.safeParse(await preferences.get(userId, KEY_LEGACY_HIGHLIGHTS));
    if (legacy.success) {
      if (legacy.data.sports !== undefined) layout.header.sports = legacy.data.sports;
      if (legacy.data.jokes !== undefined) layout.header.jokes = legacy.data.jokes;
    }
    return { layout, locked: locked === true, custom: false };
  }

  get(actor: UserActor): Promise<LayoutResponse> {
    return this.effective(actor.id);
  }

  async save(actor: UserActor, layout: HomeLayout): Promise<LayoutResponse> {
    if ((await this.deps.preferences.get(actor.id, KEY_LOCKED)) === true) {
      throw new ForbiddenError('Your home screen is locked by an admin.', 'layout_locked');
    }
    await this.deps.preferences.set(actor.id, KEY_LAYOUT, layout);
    return { layout, locked: false, custom: true };
  }

  async readDefault(actor: Actor): Promise<{ layout: HomeLayout }> {
    assertAdmin(actor);
    return { layout: await this.getDefault() };
  }

  async saveDefault(actor: Actor, layout: HomeLayout): Promise<{ layout: HomeLayout }> {
    assertAdmin(actor);
    await this.deps.settings.set(KEY_DEFAULT, layout);
    return { layout };
  }

  private async assertUser(userId: string) {
    if (!(await this.deps.auth.getUser(userId))) throw new NotFoundError('That household member does not exist.');
  }

  async readForUser(actor: Actor, userId: string): Promise<LayoutResponse> {
    assertAdmin(actor);
    await this.assertUser(userId);
    return this.effective(userId);
  }

  /** Sets a member's layout (null = back to the default) and/or lock. The user is checked first. */
  async saveForUser(actor: Actor, userId: string, body: SetUserLayoutBody): Promise<LayoutResponse> {
    assertAdmin(actor);
    await this.assertUser(userId);
    const { preferences } = this.deps;
    if (body.layout === null) await preferences.delete(userId, KEY_LAYOUT);
    else if (body.layout !== undefined) await preferences.set(userId, KEY_LAYOUT, body.layout);
    if (body.locked !== undefined) await preferences.set(userId, KEY_LOCKED, body.locked);
    return this.effective(userId);
  }
}
