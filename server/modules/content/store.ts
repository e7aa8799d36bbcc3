// Every query of content_dials and content_adult_states. Rows are mapped to camelCase; a miss is
// null. No rules here: the content service decides.
import type { Knex } from 'knex';
import type { Level, MemberDials } from './schema.js';

interface DialsRow {
  user_id: string;
  level: Level;
  chat: Level | null;
  images: Level | null;
  media: Level | null;
  archives: Level | null;
}

export class ContentStore {
  constructor(private readonly db: Knex) {}

  /** The member's dials; null when an admin never set them (the default applies). */
  async dials(userId: string): Promise<MemberDials | null> {
    const r = await this.db('content_dials').where({ user_id: userId }).first<DialsRow | undefined>();
    return r ? { userId: r.user_id, level: r.level, chat: r.chat, images: r.images, media: r.media, archives: r.archives } : null;
  }

  async setDials(d: MemberDials, at: string): Promise<void> {
    const row = { level: d.level, chat: d.chat, images: d.images, media: d.media, archives: d.archives, updated_at: at };
    await this.db('content_dials')
      .insert({ user_id: d.userId, ...row })
      .onConflict('user_id')
      .merge(row);
  }

  /** When the session's adult state ends; null when it was never turned on (or turned off). */
  async adultUntil(sessionId: string): Promise<string | null> {
    const r = await this.db('content_adult_states').where({ session_id: sessionId }).first<{ until: string } | undefined>();
    return r?.until ?? null;
  }

  async setAdultUntil(sessionId: string, userId: string, until: string): Promise<void> {
    await this.db('content_adult_states').insert({ session_id: sessionId, user_id: userId, until }).onConflict('session_id').merge({ until });
  }

  async clearAdult(sessionId: string): Promise<void> {
    await this.db('content_adult_states').where({ session_id: sessionId }).delete();
  }

  /** Ends every adult state of a member (their level went below adult). */
  async clearAdultOfUser(userId: string): Promise<void> {
    await this.db('content_adult_states').where({ user_id: userId }).delete();
  }

  async sweepAdult(now: string): Promise<number> {
    return this.db('content_adult_states').where('until', '<=', now).delete();
  }
}
