// image_gen, the chat tool that makes a picture: it starts a txt2img job as the member who asked
// (their protections and LoRAs apply, the picture is theirs alone) and answers with the picture's
// link; the picture keeps building after the answer. When the image engine is not reachable it
// answers that it is offline, in a sentence. Listed in this module's manifest (module.ts), gathered by the chat module; its
// Extension (same id) is in extensions.ts.
import { z } from 'zod';
import { AppError } from '../../errors.js';
import type { ChatTool, ChatToolResult } from '../chat/public.js';
import type { ImageGenerateService } from './generate-service.js';
import { GenerateBody, MAX_PROMPT_CHARS, Orientation, SIDE_MAX_PX, SIDE_MIN_PX, Style } from './schema.js';

export const IMAGE_TOOL_TIMEOUT_MS = 5_000;

export const ImageGenArgs = z.object({
  prompt: z.string().trim().min(1).max(MAX_PROMPT_CHARS).describe('What the picture shows, in plain words, e.g. "a red kite over a sandy beach".'),
  style: Style.optional().describe('A look for the picture, when the person asked for one.'),
  orientation: Orientation.optional().describe('portrait, landscape or square, when the person said so.'),
  width: z.number().finite().optional().describe(`Width in pixels, when the person asked for a size (the engine makes ${SIDE_MIN_PX} to ${SIDE_MAX_PX}; a larger or smaller size is brought into that range).`),
  height: z.number().finite().optional().describe(`Height in pixels, when the person asked for a size (${SIDE_MIN_PX} to ${SIDE_MAX_PX}, as for width).`),
});

/** Where the member finds the picture in the web app. */
export const pictureUrl = (id: string) => `/images?id=${encodeURIComponent(id)}`;

export function createImageGenTool(deps: { generate: Pick<ImageGenerateService, 'generate'> }): ChatTool<typeof ImageGenArgs> {
  return {
    id: 'image_gen',
    description:
      'Make a picture on this household\'s own image engine from a description. Use it when the person asks you to draw, paint or create a picture or image. ' +
      'It starts the picture and answers with its link; the picture takes a minute or two to appear there.',
    args: ImageGenArgs,
    timeoutMs: IMAGE_TOOL_TIMEOUT_MS,
    async run(args, ctx): Promise<ChatToolResult> {
      try {
        const { artifact } = await deps.generate.generate(
          ctx.actor,
          GenerateBody.parse({ pipeline: 'txt2img', prompt: args.prompt, style: args.style ?? null, orientation: args.orientation ?? null, width: args.width, height: args.height }),
        );
        const size = artifact.used ? ` at ${artifact.used.width} × ${artifact.used.height} pixels` : '';
        return {
          content: `Started the picture "${args.prompt}"${size}. It will appear at ${pictureUrl(artifact.id)} in a minute or two (the file itself at ${artifact.url}). Tell the person where to find it.`,
          summary: 'Started a picture',
          sources: [],
        };
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        const offline = err.status === 503;
        return {
          content: offline ? `The image engine is offline, so no picture was started: ${err.message}` : `No picture was started: ${err.message}`,
          summary: offline ? 'The image engine is offline' : 'No picture started',
          sources: [],
        };
      }
    },
  };
}
