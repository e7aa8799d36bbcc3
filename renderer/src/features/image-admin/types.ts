// The image admin pages' addresses and types (the server's contract, server/modules/image-gen/schema.ts,
// type-only). Every admin path is here, so the pages agree with the routes in one place.
import type { z } from 'zod';
import type * as S from '../../../../server/modules/image-gen/schema.js';

export type { AdminLora, LoraCategory, MemberGrants, Protections, GrantState, LoraPatchBody, EngineState } from '../../../../server/modules/image-gen/schema.js';
export type AdminLorasResponse = z.infer<typeof S.AdminLorasResponse>;
export type AdminLoraResponse = z.infer<typeof S.AdminLoraResponse>;
export type CategoryResponse = z.infer<typeof S.CategoryResponse>;
export type EngineAdminResponse = z.infer<typeof S.EngineAdminResponse>;
export type EngineConfigBody = z.infer<typeof S.EngineConfigBody>;
export type EngineLogsResponse = z.infer<typeof S.EngineLogsResponse>;
export type HubSearchResponse = z.infer<typeof S.HubSearchResponse>;
export type HubResult = z.infer<typeof S.HubResult>;
export type HubKeyResponse = z.infer<typeof S.HubKeyResponse>;

export const ENGINE_API = '/api/admin/image-engine';
export const LORAS_API = '/api/admin/image-loras';
const enc = encodeURIComponent;
export const loraApi = (id: string) => `${LORAS_API}/${enc(id)}`;
export const categoriesApi = `${LORAS_API}/categories`;
export const categoryApi = (id: string) => `${categoriesApi}/${enc(id)}`;
export const memberGrantsApi = (userId: string) => `${LORAS_API}/members/${enc(userId)}`;
export const protectionsApi = (userId: string) => `${memberGrantsApi(userId)}/protections`;
export const loraGrantApi = (loraId: string, userId: string) => `${loraApi(loraId)}/grants/${enc(userId)}`;
export const categoryGrantApi = (categoryId: string, userId: string) => `${categoryApi(categoryId)}/grants/${enc(userId)}`;
export const importFileApi = `${LORAS_API}/import-file`;
export const hubSearchApi = `${LORAS_API}/civitai-search`;
export const hubImportApi = `${LORAS_API}/civitai-import`;
export const hubKeyApi = `${LORAS_API}/hub-key`;

export const ENGINE_STATE_TEXT: Readonly<Record<S.EngineState, string>> = {
  idle: 'Not running',
  installing: 'Setting up',
  warming: 'Starting',
  ready: 'Ready',
  failed: 'Stopped with a problem',
};
