// One piece on the engine: open the WebSocket with a fresh client id, POST /prompt, relay the
// sampler's progress as steps, and once the engine says the prompt is finished fetch SaveAudio's
// file with /view. A refusal, an execution_error, an interrupt, a stall (no frame for stallMs), a
// socket that closes and an answer that is not audio each end the piece with a sentence; nothing is
// written here (the service stores the bytes only when they are whole).
import type { ApiGraph } from '../../adapters/image-engine/protocol.js';
import type { EngineFileRef, EngineSocket, ImageEngineClient } from '../image-gen/public.js';

export type MusicJobEvent = { type: 'step'; current: number; total: number } | { type: 'error'; code: string; message: string };

export class MusicJobError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const CUT = 'The image engine stopped while making this piece. Try once more in a minute.';

/** Runs the graph; resolves with the output file's bytes, or throws a MusicJobError with a sentence. */
export async function runMusicGraph(opts: {
  client: ImageEngineClient;
  /** Opened before the stream (an engine that is down is a plain 503), with its client id. */
  socket: EngineSocket;
  clientId: string;
  graph: ApiGraph;
  samplerNode: string;
  outputNode: string;
  total: number;
  stallMs: number;
  signal: AbortSignal;
  onStep: (current: number, total: number) => void;
}): Promise<Buffer> {
  const { client, socket, clientId } = opts;
  let promptId: string | null = null;
  try {
    const ref = await new Promise<EngineFileRef>((resolve, reject) => {
      let settled = false;
      let stall: NodeJS.Timeout | null = null;
      let out: EngineFileRef | null = null;
      const end = (err: MusicJobError | null, r?: EngineFileRef) => {
        if (settled) return;
        settled = true;
        if (stall) clearTimeout(stall);
        opts.signal.removeEventListener('abort', onAbort);
        if (err) reject(err);
        else resolve(r!);
      };
      const interrupt = () => {
        if (promptId) void client.interrupt(promptId).catch(() => undefined); // best effort: the piece ends either way
      };
      const arm = () => {
        if (stall) clearTimeout(stall);
        stall = setTimeout(() => {
          interrupt();
          end(new MusicJobError('music_stalled', 'The image engine stopped making progress on this piece, so it was stopped. Try once more.'));
        }, opts.stallMs);
        stall.unref();
      };
      const onAbort = () => {
        interrupt();
        end(new MusicJobError('cancelled', 'Hearth is stopping, so this piece was stopped.'));
      };
      opts.signal.addEventListener('abort', onAbort, { once: true });
      socket.onClose((error) => {
        if (error) end(new MusicJobError('music_engine_cut', CUT));
      });
      socket.onFrame((f) => {
        if (settled || f.type === 'preview' || f.type === 'status') return;
        if (!promptId || f.promptId !== promptId) return;
        arm();
        switch (f.type) {
          case 'progress':
            if (f.node === opts.samplerNode) opts.onStep(Math.min(opts.total, f.value), opts.total);
            return;
          case 'executed':
            if (f.node === opts.outputNode) out = f.output.audio?.[0] ?? null;
            return;
          case 'execution_error':
            return end(new MusicJobError('music_engine_error', `The image engine could not finish this piece${f.nodeType ? ` (${f.nodeType})` : ''}: ${f.message.split('\n')[0]?.trim() || f.exceptionType}.`));
          case 'execution_interrupted':
            return end(new MusicJobError('music_interrupted', 'The image engine stopped this piece. Try once more.'));
          case 'executing':
            if (f.node === null) end(out ? null : new MusicJobError('music_no_output', 'The image engine finished without a piece of music. Try once more.'), out ?? undefined);
            return;
          default:
            return;
        }
      });
      client.submit(opts.graph, clientId, opts.signal).then(
        (r) => {
          if ('refused' in r) return end(new MusicJobError('music_engine_refused', r.refused.message));
          promptId = r.promptId;
          arm();
        },
        () => end(new MusicJobError('music_engine_cut', CUT)),
      );
    });
    return await client.view(ref, opts.signal).catch(() => {
      throw new MusicJobError('music_engine_cut', CUT);
    });
  } finally {
    socket.close();
  }
}
