// The home-assistant module's requests and answers (spec "Other route groups": /api/home-assistant
// and /api/admin/home-assistant; reference/home-assistant.md §5 and §7), with the services each
// domain offers a member and the domains that are guarded.
import { z } from 'zod';

/** Services a member may ask for, per domain (reference §5); a domain not listed is read-only. */
export const DOMAIN_SERVICES: Readonly<Record<string, readonly string[]>> = {
  light: ['turn_on', 'turn_off', 'toggle'],
  switch: ['turn_on', 'turn_off', 'toggle'],
  input_boolean: ['turn_on', 'turn_off', 'toggle'],
  fan: ['turn_on', 'turn_off', 'toggle', 'set_percentage'],
  climate: ['set_temperature', 'set_hvac_mode', 'set_preset_mode', 'turn_on', 'turn_off'],
  cover: ['open_cover', 'close_cover', 'stop_cover', 'set_cover_position'],
  media_player: ['media_play_pause', 'media_play', 'media_pause', 'media_next_track', 'media_previous_track', 'volume_set', 'volume_mute', 'select_source', 'turn_on', 'turn_off'],
  lock: ['lock', 'unlock', 'open'],
  alarm_control_panel: ['alarm_arm_home', 'alarm_arm_away', 'alarm_arm_night', 'alarm_disarm'],
  scene: ['turn_on'],
  script: ['turn_on'],
  vacuum: ['start', 'pause', 'return_to_base'],
};

/** Domains whose every action needs a confirmation (and which a `deny` member never sees). */
export const GUARDED_DOMAINS: readonly string[] = ['lock', 'alarm_control_panel'];
/** Covers of these device classes are guarded too. */
export const GUARDED_COVER_CLASSES: readonly string[] = ['garage', 'gate'];

export const CONNECTION_STATUSES = ['not_set', 'connecting', 'connected', 'auth_failed', 'unreachable'] as const;
export const ConnectionStatus = z.enum(CONNECTION_STATUSES);
export type ConnectionStatus = z.infer<typeof ConnectionStatus>;

export const ConnectionResponse = z.object({
  url: z.string().nullable(),
  tokenSet: z.boolean(),
  connected: z.boolean(),
  status: ConnectionStatus,
  /** Home Assistant's version. */
  version: z.string().nullable(),
  /** All of Home Assistant's entities (not only the exposed ones). */
  entityCount: z.number().int(),
  /** What is wrong, in a sentence; null when connected or not set. */
  error: z.string().nullable(),
});
export type ConnectionResponse = z.infer<typeof ConnectionResponse>;

export const PutConnectionBody = z
  .object({
    url: z
      .string()
      .trim()
      .max(500)
      .regex(/^https?:\/\//i, 'The address starts with http:// or https://.')
      .refine((u) => URL.canParse(u), 'That is not a web address.')
      .refine((u) => !URL.canParse(u) || (!new URL(u).username && !new URL(u).password), 'The address may not carry a user name or password; the access token is given separately.')
      .refine((u) => !URL.canParse(u) || (new URL(u).pathname === '/' && !new URL(u).search), 'Give only the address of Home Assistant (like http://homeassistant.local:8123), without a path.'),
    token: z.string().trim().min(20, 'A long-lived access token is a long string; paste the whole of it.').max(2000),
  })
  .strict();
export type PutConnectionBody = z.infer<typeof PutConnectionBody>;

const AttrValue = z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.union([z.string(), z.number()]))]);

export const EntityView = z.object({
  id: z.string(),
  name: z.string(),
  domain: z.string(),
  state: z.string(),
  /** The attributes a tile uses (reference §5), nothing else. */
  attributes: z.record(z.string(), AttrValue),
  guarded: z.boolean(),
  /** The services the caller may ask for on it (empty: read-only). */
  services: z.array(z.string()),
});
export type EntityView = z.infer<typeof EntityView>;

export const AreaView = z.object({ id: z.string().nullable(), name: z.string(), entities: z.array(EntityView) });
export type AreaView = z.infer<typeof AreaView>;

export const EntitiesResponse = z.object({
  status: ConnectionStatus,
  /** Why nothing can be shown or controlled, and what to do; null when connected. */
  message: z.string().nullable(),
  areas: z.array(AreaView),
});
export type EntitiesResponse = z.infer<typeof EntitiesResponse>;

/** Favourites a member may pin for the home screen widget. */
export const MAX_FAVOURITES = 24;

/** The member's favourite devices they may still see, in their order (the home screen widget). */
export const FavouritesResponse = z.object({
  status: ConnectionStatus,
  /** Why nothing can be shown or controlled, and what to do; null when connected. */
  message: z.string().nullable(),
  entities: z.array(EntityView),
});
export type FavouritesResponse = z.infer<typeof FavouritesResponse>;

export const EntityParams = z.object({ id: z.string().regex(/^[a-z_]+\.[a-z0-9_]+$/, 'That is not an entity id.').max(255) });

const DataValue = z.union([z.string().max(200), z.number().finite(), z.boolean(), z.null(), z.array(z.union([z.number().finite(), z.string().max(50)])).max(10)]);
export const ActionBody = z
  .object({
    service: z.string().regex(/^[a-z_]{1,64}$/, 'That is not a service name.'),
    data: z
      .record(z.string().regex(/^[a-z_]{1,64}$/), DataValue)
      .refine((d) => Object.keys(d).length <= 20, 'Too many fields.')
      .refine((d) => !('entity_id' in d) && !('device_id' in d) && !('area_id' in d), 'The entity is the one in the address; the data may not name another.')
      .optional(),
    confirm: z.boolean().optional(),
  })
  .strict();
export type ActionBody = z.infer<typeof ActionBody>;

export const ActionResponse = z.object({ entity: EntityView.nullable() });

export const ExposedEntity = z.object({
  id: z.string(),
  name: z.string(),
  domain: z.string(),
  area: z.string().nullable(),
  state: z.string(),
  exposed: z.boolean(),
  guarded: z.boolean(),
  /** Guarded by its domain or device class, whatever the admin picks. */
  guardedByDefault: z.boolean(),
});
export const ExposedResponse = z.object({ status: ConnectionStatus, entities: z.array(ExposedEntity) });
export type ExposedResponse = z.infer<typeof ExposedResponse>;

const EntityIdList = z.array(z.string().regex(/^[a-z_]+\.[a-z0-9_]+$/).max(255)).max(5000);
export const PutFavouritesBody = z
  .object({ entityIds: z.array(z.string().regex(/^[a-z_]+\.[a-z0-9_]+$/, 'That is not an entity id.').max(255)).max(MAX_FAVOURITES, `At most ${MAX_FAVOURITES} favourites.`) })
  .strict();
export type PutFavouritesBody = z.infer<typeof PutFavouritesBody>;

export const PutExposedBody = z.object({ entityIds: EntityIdList, guarded: EntityIdList.optional() }).strict();
export type PutExposedBody = z.infer<typeof PutExposedBody>;
export const PutExposedResponse = z.object({ exposed: z.array(z.string()), guarded: z.array(z.string()) });

export const GuardedRule = z.enum(['deny', 'confirm']);
export type GuardedRule = z.infer<typeof GuardedRule>;
export const Allowed = z.union([z.literal('all-exposed'), EntityIdList]);
export type Allowed = z.infer<typeof Allowed>;

export const MemberRights = z.object({
  userId: z.string(),
  name: z.string(),
  allowed: Allowed,
  guarded: GuardedRule,
  /** A child (content level `child`): guarded entities are denied unless an admin says otherwise. */
  child: z.boolean(),
  /** False while the member has the defaults (nothing set by an admin). */
  custom: z.boolean(),
});
export type MemberRights = z.infer<typeof MemberRights>;
export const MembersResponse = z.object({ members: z.array(MemberRights) });
export const MemberRightsResponse = z.object({ member: MemberRights });
export const MemberParams = z.object({ userId: z.string().uuid() });
export const PutMemberBody = z.object({ allowed: Allowed, guarded: GuardedRule }).strict();
export type PutMemberBody = z.infer<typeof PutMemberBody>;

export const ActivityOutcome = z.enum(['done', 'refused', 'unavailable', 'denied']);
export type ActivityOutcome = z.infer<typeof ActivityOutcome>;
export const ActivityEntry = z.object({
  id: z.number().int(),
  userId: z.string().nullable(),
  userName: z.string(),
  entityId: z.string(),
  service: z.string(),
  source: z.enum(['app', 'chat']),
  outcome: ActivityOutcome,
  at: z.string(),
});
export type ActivityEntry = z.infer<typeof ActivityEntry>;
export const ActivityResponse = z.object({ entries: z.array(ActivityEntry) });

/** The stream's events: an entity the caller may see changed (or left), and the connection's status. */
export const StreamEntityEvent = z.object({ entity: EntityView });
export const StreamRemovedEvent = z.object({ id: z.string() });
export const StreamStatusEvent = z.object({ status: ConnectionStatus, message: z.string().nullable() });

// ---- cameras (Frigate) ------------------------------------------------------------------------

/** What a camera event is about: the labels Hearth tells the household of. */
export const CAMERA_LABELS: readonly string[] = ['person', 'car', 'dog', 'cat', 'bird', 'horse', 'bear', 'deer', 'animal'];

export const PutFrigateBody = z
  .object({
    url: PutConnectionBody.shape.url,
    /** Port 8971's sign-in; empty, null or left out: none (and no password kept). */
    user: z.string().trim().max(200).nullable().optional(),
    /** Left out or empty: the saved one stays (for the same user name); null: cleared; a string: the new one. */
    password: z.string().max(500).nullable().optional(),
    mqttUrl: z
      .string()
      .trim()
      .max(500)
      .regex(/^mqtts?:\/\/[^/@\s]+$/i, 'The broker address looks like mqtt://192.168.1.20:1883, without a path or a user name.')
      .optional(),
    notify: z.array(z.string().uuid()).max(100),
  })
  .strict()
  .refine((b) => !b.password || Boolean(b.user), { message: 'Give the user name that goes with the password.', path: ['user'] });
export type PutFrigateBody = z.infer<typeof PutFrigateBody>;

export const FrigateResponse = z.object({
  configured: z.boolean(),
  url: z.string().nullable(),
  user: z.string().nullable(),
  passwordSet: z.boolean(),
  mqttUrl: z.string().nullable(),
  notify: z.array(z.string()),
  version: z.string().nullable(),
});
export type FrigateResponse = z.infer<typeof FrigateResponse>;

export const CameraEvent = z.object({
  id: z.string(),
  camera: z.string(),
  label: z.string(),
  at: z.string(),
  /** Hearth's own address of the snapshot (proxied; null when Frigate kept none). */
  snapshotUrl: z.string().nullable(),
  /** Hearth's own address of the clip (proxied, MP4, Range honoured; null when Frigate kept none). */
  clipUrl: z.string().nullable(),
});
export type CameraEvent = z.infer<typeof CameraEvent>;
export const CameraEventsResponse = z.object({
  /** False when no recorder is set up, or the caller is not among the members told of camera events. */
  shared: z.boolean(),
  events: z.array(CameraEvent),
});
export type CameraEventsResponse = z.infer<typeof CameraEventsResponse>;
export const CameraEventParams = z.object({ id: z.string().regex(/^[\w.-]{1,80}$/) });
