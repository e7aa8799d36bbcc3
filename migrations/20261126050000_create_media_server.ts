// The media server (the household's Plex): the one shared connection an admin sets, each member's
// own linked account, the PIN flows in progress, the GUID resolution cache (30 days), each member's
// watch progress as Hearth saw it (for two-way sync), the admin's storage locations, each member's
// private library sections, and the home videos members upload into them.
//
// Tokens (the server's and each member's) live only in these rows: no route answers them, no log
// line or error carries them (spec, Authentication rule 6).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  if (await knex.schema.hasTable('media_server_connection')) return;

  // One row (id 'household'): the shared server every library read goes through (rule 2).
  await knex.schema.createTable('media_server_connection', (t) => {
    t.text('id').primary();
    // the origin Hearth reaches the server at (the SSRF guard's one LAN exception)
    t.text('server_url').notNullable();
    t.text('server_token').notNullable();
    t.text('machine_identifier').notNullable();
    t.text('server_name').notNullable();
    t.text('server_version');
    // how it was set: typed in by the admin, or picked from the servers a PIN-linked account reaches
    t.text('source').notNullable().checkIn(['manual', 'discover']);
    // the plex.tv account that owns the token (discover), for "connected as"
    t.text('account_name');
    // last health check: ok | unauthorized (token revoked) | unreachable; checked_at ISO
    t.text('health').notNullable().defaultTo('ok');
    t.text('checked_at');
    t.text('updated_at').notNullable();
    t.text('updated_by').references('id').inTable('users').onDelete('SET NULL');
  });

  // Each member's own plex.tv account: watchlist and watched actions use this token (rule 2).
  await knex.schema.createTable('media_server_links', (t) => {
    t.text('user_id').primary().references('id').inTable('users').onDelete('CASCADE');
    t.text('token').notNullable();
    t.integer('account_id').notNullable();
    t.text('username').notNullable();
    t.text('display_name');
    t.text('thumb_url');
    // valid | revoked (plex.tv or the server answered 401: the page offers "link again")
    t.text('token_state').notNullable().defaultTo('valid').checkIn(['valid', 'revoked']);
    // does this account reach the shared server (owner or friend)? null until checked
    t.boolean('server_access');
    t.text('linked_at').notNullable();
    t.text('checked_at');
  });

  // PIN flows in progress (plex.tv pins live about 15 minutes); a pin belongs to the member who
  // asked for it, and only they may poll it or link with it.
  await knex.schema.createTable('media_server_pins', (t) => {
    t.integer('pin_id').primary();
    t.text('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('code').notNullable();
    // the approved pin's token, kept only until it is used (link or discover), then cleared
    t.text('auth_token');
    t.text('expires_at').notNullable();
    t.text('created_at').notNullable();
  });

  // Rule 4: GUID (or title+year) -> in-app route, cached 30 days.
  await knex.schema.createTable('media_resolutions', (t) => {
    // e.g. 'plex://show/5d9c…', 'com.plexapp.agents.imdb://tt…', or 'title:<normalised title>|<year>'
    t.text('cache_key').primary();
    // JSON: the Resolution of modules/media-server/guids.ts
    t.text('resolution').notNullable();
    t.text('resolved_at').notNullable();
    t.index(['resolved_at'], 'media_resolutions_age');
  });

  // Rule 5: each member's watch state as Hearth last saw or set it, per server item.
  await knex.schema.createTable('media_progress', (t) => {
    t.text('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('rating_key').notNullable();
    t.integer('position_ms').notNullable().defaultTo(0);
    t.integer('duration_ms');
    // the app's own "completed" flag (played to the end, or marked watched in Hearth)
    t.boolean('completed').notNullable().defaultTo(false);
    t.integer('view_count').notNullable().defaultTo(0);
    t.text('updated_at').notNullable();
    // when this state was last pushed to (or pulled from) the server; null: not yet pushed
    t.text('synced_at');
    t.primary(['user_id', 'rating_key']);
  });

  // An admin's folder on this computer, assigned to content types, with how the media server sees
  // the same folder (rule 3). Provision stays disabled until path_mapping is set and checked.
  await knex.schema.createTable('media_storage_locations', (t) => {
    t.text('id').primary();
    t.text('name').notNullable();
    // absolute path on this computer (checked through the path guard when used)
    t.text('local_path').notNullable().unique();
    // JSON array of content types (today: ["mine"])
    t.text('content_types').notNullable().defaultTo('[]');
    // the same folder as the media server sees it (e.g. /data/hearth on a NAS); null until set
    t.text('server_path');
    // the last browse check of server_path: ok | missing | error; with when
    t.text('mapping_state');
    t.text('mapping_checked_at');
    t.text('created_at').notNullable();
    t.text('updated_at').notNullable();
  });

  // Each member's own library section per content type, and its policies (rule 6).
  await knex.schema.createTable('media_library_sections', (t) => {
    t.text('id').primary();
    t.text('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('content_type').notNullable();
    t.text('location_id').references('id').inTable('media_storage_locations').onDelete('SET NULL');
    // the member's folder, relative to the location (e.g. "mine/<userId>")
    t.text('folder').notNullable();
    // queued -> creating -> scanning -> ready | failed (error keeps a sentence); retried from queued
    t.text('status').notNullable().checkIn(['queued', 'creating', 'scanning', 'ready', 'failed']);
    t.text('error');
    // the server's section key once created
    t.text('section_key');
    t.text('sync_mode').notNullable().defaultTo('all').checkIn(['all', 'recent']);
    t.integer('sync_recent_count').notNullable().defaultTo(20);
    t.boolean('remove_watched').notNullable().defaultTo(false);
    t.text('created_at').notNullable();
    t.text('updated_at').notNullable();
    t.text('last_swept_at');
    t.unique(['user_id', 'content_type']);
  });

  // Content type `mine`: home videos a member uploaded (resumable; the upload's partial bytes live
  // in the upload store until complete, then the file moves into the member's folder).
  await knex.schema.createTable('media_home_videos', (t) => {
    t.text('id').primary();
    t.text('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('section_id').notNullable().references('id').inTable('media_library_sections').onDelete('CASCADE');
    t.text('title').notNullable();
    // the file name inside the section's folder (never a path)
    t.text('file_name').notNullable();
    t.text('content_type').notNullable();
    t.integer('bytes').notNullable();
    // stored: on disk, waiting for the scan; ready: the server has it (rating_key set); removed:
    // deleted by the member or the watched sweep (the row stays so the sweep's work is visible)
    t.text('state').notNullable().checkIn(['stored', 'ready', 'removed']);
    t.text('rating_key');
    t.text('removed_reason');
    t.text('created_at').notNullable();
    t.text('removed_at');
    t.index(['user_id', 'state', 'created_at'], 'media_home_videos_user_state');
    t.index(['section_id'], 'media_home_videos_section');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('media_home_videos');
  await knex.schema.dropTableIfExists('media_library_sections');
  await knex.schema.dropTableIfExists('media_storage_locations');
  await knex.schema.dropTableIfExists('media_progress');
  await knex.schema.dropTableIfExists('media_resolutions');
  await knex.schema.dropTableIfExists('media_server_pins');
  await knex.schema.dropTableIfExists('media_server_links');
  await knex.schema.dropTableIfExists('media_server_connection');
}
