// The models API as the server declares it (types only, from the server's schema).
export type {
  EssentialRoleName,
  MemberModelAccess,
  MemberModelAccessResponse,
  ModelAccessResponse,
  ModelCapability,
  ModelsResponse,
  ModelView,
  PullModelResponse,
} from '../../../../server/modules/models/schema.js';
