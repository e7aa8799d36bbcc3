// Image generation's addresses, types and the words the pages show for the server's enums. Types come
// from the server's contract (server/modules/image-gen/schema.ts, type-only); the lists below restate
// its enums, and `satisfies` keeps each equal to the server's.
import type { z } from 'zod';
import type {
  Artifact,
  ArtifactKind,
  EditOp,
  ImageEvents as ServerImageEvents,
  ImageStatusResponse,
  MemberLora,
  Pipeline,
  PipelineAvailability,
  Style,
} from '../../../../server/modules/image-gen/schema.js';

export type { Artifact, ArtifactKind, EditOp, ImageStatusResponse, MemberLora, Pipeline, PipelineAvailability, Style };
export type { HistoryResponse } from '../../../../server/modules/image-gen/schema.js';
import type * as S from '../../../../server/modules/image-gen/schema.js';
export type BuildingResponse = z.infer<typeof S.BuildingResponse>;
export type MemberLorasResponse = z.infer<typeof S.MemberLorasResponse>;
export type PreviewCheckResponse = z.infer<typeof S.PreviewCheckResponse>;
export type ArtifactResponse = z.infer<typeof S.ArtifactResponse>;

/** The events of POST /generate, POST /edit and GET /artifacts/:id/stream, as the stream readers take them. */
export type ImageEvents = { [K in keyof typeof ServerImageEvents]: z.infer<(typeof ServerImageEvents)[K]> };

export const IMAGE_API = '/api/image';
export const artifactApi = (id: string) => `${IMAGE_API}/artifacts/${encodeURIComponent(id)}`;

export const CREATE_HREF = '/images';
export const EDIT_HREF = '/images/edit';
export const HISTORY_HREF = '/images/history';
export const ENGINE_ADMIN_HREF = '/admin/images';

export const STYLES = ['photorealistic', 'sketch', 'watercolor', 'oil_painting', 'cartoon', 'anime', 'pixel_art', '3d_render', 'illustration'] as const satisfies readonly Style[];
export const STYLE_TEXT: Readonly<Record<Style, string>> = {
  photorealistic: 'Photo',
  sketch: 'Sketch',
  watercolor: 'Watercolour',
  oil_painting: 'Oil painting',
  cartoon: 'Cartoon',
  anime: 'Anime',
  pixel_art: 'Pixel art',
  '3d_render': '3D',
  illustration: 'Illustration',
};

export type OrientationChoice = 'auto' | 'portrait' | 'landscape' | 'square';
export const ORIENTATIONS: readonly OrientationChoice[] = ['auto', 'portrait', 'landscape', 'square'];
export const ORIENTATION_TEXT: Readonly<Record<OrientationChoice, string>> = { auto: 'Auto', portrait: 'Tall', landscape: 'Wide', square: 'Square' };

/** The edit ops in the order the Edit page offers them, each with the pipeline it runs (server EDIT_OPS). */
export const EDIT_OPS = {
  'remove-bg': 'bg_remove',
  'bg-blur': 'bg_blur',
  upscale: 'upscale',
  enhance: 'enhance',
  'auto-color': 'auto_color',
  adjust: 'adjust',
  'face-restore': 'face_restore',
  'photo-restore': 'photo_restore',
} as const satisfies Record<EditOp, Pipeline>;
export const OP_ORDER = Object.keys(EDIT_OPS) as EditOp[];
export const OP_TEXT: Readonly<Record<EditOp, { label: string; hint: string }>> = {
  'remove-bg': { label: 'Remove background', hint: 'Keeps the person or thing in front, clears the rest.' },
  'bg-blur': { label: 'Blur background', hint: 'Softens what is behind, like a portrait photo.' },
  upscale: { label: 'Make bigger', hint: 'Twice the size, with sharper detail.' },
  enhance: { label: 'Enhance', hint: 'Cleans up small flaws and adds a little detail.' },
  'auto-color': { label: 'Auto colour', hint: 'Fixes dull or tinted colours.' },
  adjust: { label: 'Adjust', hint: 'Brightness, contrast, colour and warmth by hand.' },
  'face-restore': { label: 'Restore faces', hint: 'Makes blurry faces clear again.' },
  'photo-restore': { label: 'Restore old photo', hint: 'Repairs scratches and faded colour.' },
};

export const PIPELINE_TEXT: Readonly<Record<Pipeline, string>> = {
  txt2img: 'Pictures from words',
  face_id: 'Pictures with a face you give',
  video: 'Short animations',
  i2v: 'Animating a picture',
  bg_remove: 'Removing backgrounds',
  bg_blur: 'Blurring backgrounds',
  face_inpaint: 'Fixing faces in a picture',
  upscale: 'Making pictures bigger',
  enhance: 'Enhancing pictures',
  face_restore: 'Restoring faces',
  photo_restore: 'Restoring old photos',
  auto_color: 'Auto colour',
  adjust: 'Adjusting by hand',
};

export const KIND_TEXT: Readonly<Record<ArtifactKind, string>> = { generated: 'Created', edited: 'Edited' };

/** A clip (video or an animated picture): an animated WebP that plays where a picture shows. */
export const isClip = (a: Pick<Artifact, 'pipeline'>): boolean => a.pipeline === 'video' || a.pipeline === 'i2v';

/** The Create page's address for bringing one of the member's pictures to life. */
export const animateHref = (id: string): string => `${CREATE_HREF}?animate=${encodeURIComponent(id)}`;

/** A short name for a picture: its prompt, or what was done to it. */
export function artifactTitle(a: Pick<Artifact, 'prompt' | 'kind' | 'pipeline'>): string {
  if (a.prompt.trim()) return a.prompt.trim();
  return a.kind === 'edited' ? `Edited picture (${PIPELINE_TEXT[a.pipeline].toLowerCase()})` : 'Picture';
}

/** The file name a download gets. */
export function downloadName(a: Pick<Artifact, 'id' | 'contentType'>): string {
  const ext = a.contentType === 'image/webp' ? 'webp' : a.contentType === 'image/jpeg' ? 'jpg' : 'png';
  return `hearth-${a.id}.${ext}`;
}
