// The pipelines' names and the shape of a built graph: the leaf that workflow-graph.ts (which picks
// a builder per pipeline) and the builders in graphs-create.ts and graphs-edit.ts both import.
import type { ApiGraph, SamplerStep } from './graph-builder.js';

export const PIPELINES = ['txt2img', 'face_id', 'video', 'i2v', 'bg_remove', 'bg_blur', 'face_inpaint', 'upscale', 'enhance', 'face_restore', 'photo_restore', 'auto_color', 'adjust'] as const;
export type Pipeline = (typeof PIPELINES)[number];

/** Pipelines that run in Hearth with sharp, never on the engine. */
export const LOCAL_PIPELINES = ['auto_color', 'adjust'] as const satisfies readonly Pipeline[];
export type LocalPipeline = (typeof LOCAL_PIPELINES)[number];
export type EnginePipeline = Exclude<Pipeline, LocalPipeline>;

/** A picture already uploaded into the engine's input folder (POST /upload/image's returned name). */
export interface SourceImage {
  name: string;
  width: number;
  height: number;
}

export interface BuiltGraph {
  pipeline: EnginePipeline;
  /** The graph in API format, for `POST /prompt`. */
  graph: ApiGraph;
  /** The save node whose `executed` output is the job's result. */
  outputNode: string;
  /** `<id>.png`, or an animated `<id>.webp` for video and i2v. */
  output: 'png' | 'webp';
  /** The samplers in run order: their `progress` frames are the step bar (others are tiles). */
  samplers: SamplerStep[];
  /** The result's size in pixels. */
  width: number;
  height: number;
  frames?: number;
}
