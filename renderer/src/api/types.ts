// API shapes the web app uses. Types come from the server's schemas (type-only, nothing from the
// server ends up in the bundle); none is spelled here.
export type {
  AdminUser,
  AdminUserResponse,
  ChangePinResponse,
  OkResponse,
  ProfilesResponse,
  PublicUser,
  Role,
  SelectResponse,
  SessionResponse,
  UserResponse,
  UsersResponse,
} from '../../../server/modules/auth/schema.js';
export type {
  CreateAdminResponse,
  ModelRuntimeStatus,
  SetupCatalog,
  SetupInstallEvents,
  SetupState,
  SetupStatus,
} from '../../../server/modules/setup/schema.js';
export type { ContentResponse, Level, MemberDials, PrivacyResponse } from '../../../server/modules/content/schema.js';
export type { MemoriesResponse, Memory, MemorySetting } from '../../../server/modules/memory/schema.js';
export type { AdminCompanion, Companion, MemberCompanion } from '../../../server/modules/companions/schema.js';
export type {
  ActivityEntry as HaActivityEntry,
  CameraEventsResponse as CameraEvents,
  ConnectionResponse as HaConnection,
  EntitiesResponse as HaEntities,
  EntityView as HaEntity,
  ExposedResponse as HaExposed,
  FavouritesResponse as HaFavourites,
  FrigateResponse as FrigateSettings,
  MemberRights as HaMemberRights,
} from '../../../server/modules/home-assistant/schema.js';
export type { BootEvents, BootRepairEvent, BootStatus, BootStepEvent, ReadyResponse } from '../../../server/modules/system/schema.js';
export type { AdminCatalogResponse, GeoResult, MapDownloadEventMap, Place, Region as MapRegion, RouteResponse } from '../../../server/modules/maps/schema.js';
export type {
  Aisle,
  ListDetail as ShoppingListDetail,
  ShoppingItem,
  ShoppingList,
  Suggestion as ShoppingSuggestion,
} from '../../../server/modules/shopping/schema.js';
export type { PhoneFacts, Product as BarcodeProduct } from '../../../server/modules/lookup/schema.js';
export type {
  AdminChannel as NotifyAdminChannel,
  AdminChannelsResponse as NotifyAdminChannels,
  ChannelType as NotifyChannelType,
  DeliveriesResponse as NotifyDeliveries,
  Delivery as NotifyDelivery,
  LinkCodeResponse as NotifyLinkCode,
  LinkStatusResponse as NotifyLinkStatus,
  MemberRoutes as NotifyMemberRoutes,
  RouteTarget as NotifyRouteTarget,
  RoutesBody as NotifyRoutesBody,
  TestResponse as NotifyTestResponse,
} from '../../../server/modules/notify/schema.js';
export type { Skill, SkillsResponse } from '../../../server/modules/skills/schema.js';
export type { EffectiveLocale, EffectiveLocaleResponse, HouseholdLocale, LocaleSettingsResponse, MemberLocale } from '../../../server/modules/locale/schema.js';
