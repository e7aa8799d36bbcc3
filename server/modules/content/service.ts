// The rules of each member's safety envelope: their content dials (a level, each area never looser
// than it; an admin's to set, never one's own), what each area reads from them (the image module's
// protections among them), and the PIN-gated adult state of a session (30 minutes, members at
// `adult` only, ended by signing out or by DELETE).
import { assertAdmin, isOwner, type Actor, type UserActor } from '../../actor.js';
import { ForbiddenError, NotFoundError, UnprocessableError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { ContentPorts } from './ports.js';
import { allows, tighter } from './public.js';
import { ADULT_STATE_MS, AREA_NAMES, AREAS, type Area, type ContentResponse, type ImageProtections, type Level, type MemberDials, type PrivacyResponse, type PutDialsBody } from './schema.js';
import type { ContentStore } from './store.js';

export interface ContentDeps {
  store: ContentStore;
  users: ContentPorts['users'];
  clock: Clock;
}

/** A member's level in each area, after the dials. */
export type EffectiveDials = Record<Area | 'level', Level>;

/** A member an admin never set: `teen` everywhere (the first admin's row is written as they are created). */
export const DEFAULT_LEVEL: Level = 'teen';

const memberNotFound = () => new NotFoundError('That member is not in the household.');

export class ContentService {
  constructor(private readonly deps: ContentDeps) {}

  private now(): Date {
    return this.deps.clock.now();
  }

  private async dialsOf(userId: string): Promise<MemberDials> {
    return (await this.deps.store.dials(userId)) ?? { userId, level: DEFAULT_LEVEL, chat: null, images: null, media: null, archives: null };
  }

  /** The member's level in every area (what each area enforces). */
  async effective(userId: string): Promise<EffectiveDials> {
    const d = await this.dialsOf(userId);
    const out = { level: d.level } as EffectiveDials;
    for (const area of AREAS) out[area] = tighter(d[area] ?? d.level, d.level);
    return out;
  }

  /** Whether the caller's session is in the adult state now (a member below `adult` never is). */
  async adultStateOn(actor: Actor): Promise<boolean> {
    return (await this.privacy(actor)).adultState;
  }

  /** GET /api/content: the caller's effective dials and whether the adult state is on. */
  async mine(actor: UserActor): Promise<ContentResponse> {
    const [dials, adultState] = await Promise.all([this.effective(actor.id), this.adultStateOn(actor)]);
    return { ...dials, adultState };
  }

  // ---- admin: a member's dials ---------------------------------------------------------------
  private async member(userId: string): Promise<void> {
    if (!(await this.deps.users.getUser(userId))) throw memberNotFound();
  }

  async getMember(actor: Actor, userId: string): Promise<MemberDials> {
    assertAdmin(actor);
    await this.member(userId);
    return this.dialsOf(userId);
  }

  /** An admin sets another member's dials; an area looser than the level is 422, never clamped. */
  async putMember(actor: Actor, userId: string, body: PutDialsBody): Promise<MemberDials> {
    assertAdmin(actor);
    await this.member(userId);
    if (actor.kind === 'user' && isOwner(actor, userId)) throw new ForbiddenError('You cannot change your own content settings. Another admin can change them for you.', 'own_content');
    const next: MemberDials = { userId, level: body.level, chat: body.chat ?? null, images: body.images ?? null, media: body.media ?? null, archives: body.archives ?? null };
    for (const area of AREAS) {
      const set = next[area];
      if (set && !allows(body.level, set)) {
        throw new UnprocessableError('area_looser_than_level', `${AREA_NAMES[area]} cannot be looser than the member's level (${body.level}). Choose ${body.level} or tighter, or raise the level.`);
      }
    }
    await this.save(next);
    return next;
  }

  private async save(next: MemberDials): Promise<void> {
    await this.deps.store.setDials(next, this.now().toISOString());
    // below adult, the member's adult state ends everywhere at once
    if (next.level !== 'adult') await this.deps.store.clearAdultOfUser(next.userId);
  }

  // ---- the image module's protections, read from and written to the dials -----------------
  /** uncensoredImages: pictures at `adult` (no safety prefix); blockAdultLoras: the member is below `adult`. */
  async imageProtections(userId: string): Promise<ImageProtections> {
    const e = await this.effective(userId);
    return { uncensoredImages: e.images === 'adult', blockAdultLoras: e.level !== 'adult' };
  }

  /**
   * The image protections' old route: unblocking adult LoRAs raises the member to `adult` (pictures
   * kept family-safe unless uncensored); blocking them takes an adult down to `teen`. Uncensored
   * pictures with adult LoRAs blocked has no place in the dials: 422 with a sentence.
   */
  async setImageProtections(actor: Actor, userId: string, body: Partial<ImageProtections>): Promise<ImageProtections> {
    assertAdmin(actor);
    await this.member(userId);
    const current = await this.imageProtections(userId);
    const uncensored = body.uncensoredImages ?? current.uncensoredImages;
    const block = body.blockAdultLoras ?? current.blockAdultLoras;
    if (uncensored && block) {
      throw new UnprocessableError('protections_conflict', 'Uncensored pictures are only for members at the adult content level, whose adult LoRAs are not blocked. Set the member to adult in Members, Content and safety.');
    }
    const d = await this.dialsOf(userId);
    let next: MemberDials;
    if (!block) {
      next = { ...d, level: 'adult', images: uncensored ? null : tighter(d.images ?? 'teen', 'teen') };
    } else {
      const level = tighter(d.level, 'teen');
      next = { ...d, level };
      for (const area of AREAS) if (next[area] && !allows(level, next[area])) next[area] = null;
    }
    await this.save(next);
    return this.imageProtections(userId);
  }

  // ---- the adult state -----------------------------------------------------------------------
  async privacy(actor: Actor): Promise<PrivacyResponse> {
    if (actor.kind !== 'user') return { adultState: false, until: null };
    const [until, dials] = await Promise.all([this.deps.store.adultUntil(actor.sessionId), this.dialsOf(actor.id)]);
    const on = until !== null && new Date(until) > this.now() && dials.level === 'adult';
    return { adultState: on, until: on ? until : null };
  }

  /** POST /api/privacy/adult: the caller's PIN turns the adult state on for this session for 30 minutes. */
  async enableAdult(actor: UserActor, pin: string, client: string): Promise<PrivacyResponse> {
    if ((await this.dialsOf(actor.id)).level !== 'adult') {
      throw new ForbiddenError('Adult content is only for members at the adult content level. An admin sets levels in Members.', 'adult_state_not_allowed');
    }
    await this.deps.users.confirmPin(actor, pin, client);
    const until = new Date(this.now().getTime() + ADULT_STATE_MS).toISOString();
    await this.deps.store.setAdultUntil(actor.sessionId, actor.id, until);
    return { adultState: true, until };
  }

  async disableAdult(actor: UserActor): Promise<PrivacyResponse> {
    await this.deps.store.clearAdult(actor.sessionId);
    return { adultState: false, until: null };
  }

  /** Forgets adult states that ran out (the hourly sweep). */
  async sweep(): Promise<number> {
    return this.deps.store.sweepAdult(this.now().toISOString());
  }
}
