// The ComfyUI adapter (server/adapters/image-engine/comfyui.ts) against the fake engine: stats,
// node list, a job over the WebSocket (opened before the submit) with decoded previews, upload,
// view, queue, interrupt, refusals as one sentence, and the typed failures (down, garbage).
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { createComfyUiClient, decodeFrame, ImageEngineError } from '../../server/adapters/image-engine/comfyui.js';
import { withImageEngineAppErrors } from '../../server/adapter-errors/image-engine.js';
import type { EngineFrame } from '../../server/modules/image-gen/parts.js';
import { buildGraph } from '../../server/modules/image-gen/workflow-graph.js';
import { startFakeImageEngine, type FakeImageEngine } from '../fakes/image-engine.js';
import { CLOSED_URL, waitFor } from '../harness/net.js';

let engine: FakeImageEngine | null = null;
afterEach(async () => {
  await engine?.close();
  engine = null;
});

const txt2img = (checkpoint = 'sdxl_base.safetensors', steps = 3) =>
  buildGraph({ pipeline: 'txt2img', checkpoint, seed: 1, width: 512, height: 512, hiRes: false, steps, positive: 'a fox', negative: 'blurry', filenamePrefix: 'hearth/a' });

describe('the image engine adapter', () => {
  it('reads stats and the node list, runs a job with decoded previews, and fetches the real PNG', async () => {
    engine = await startFakeImageEngine({ stepMs: 1 });
    const client = createComfyUiClient({ baseUrl: engine.url });
    const stats = await client.systemStats();
    expect(stats.comfyuiVersion).toBe('0.3.64');
    expect(stats.devices[0]).toMatchObject({ type: 'cuda', vramTotal: 25_393_692_672 });
    const info = await client.objectInfo();
    expect(info.has('KSampler')).toBe(true);

    const socket = await client.connect('adapter-1');
    const frames: EngineFrame[] = [];
    socket.onFrame((f) => frames.push(f));
    const built = txt2img();
    const submitted = await client.submit(built.graph, 'adapter-1');
    if (!('promptId' in submitted)) throw new Error('refused');
    await waitFor(() => frames.some((f) => f.type === 'executing' && f.node === null), 'the end marker', 10_000);
    const previews = frames.filter((f): f is Extract<EngineFrame, { type: 'preview' }> => f.type === 'preview');
    expect(previews).toHaveLength(3);
    expect(previews[0]!.format).toBe('jpeg');
    expect((await sharp(previews[0]!.bytes).metadata()).format).toBe('jpeg');
    expect(frames.filter((f) => f.type === 'progress' && f.node === built.samplers[0]!.node).map((f) => (f as { value: number }).value)).toEqual([1, 2, 3]);
    const executed = frames.find((f): f is Extract<EngineFrame, { type: 'executed' }> => f.type === 'executed')!;
    expect(executed.promptId).toBe(submitted.promptId);
    const png = await client.view(executed.output.images![0]!);
    expect((await sharp(png).metadata()).format).toBe('png');
    socket.close();
  });

  it('uploads a picture and uses the returned name; reads the queue; deletes and interrupts', async () => {
    engine = await startFakeImageEngine({ stepMs: 1 });
    const client = createComfyUiClient({ baseUrl: engine.url });
    const pic = await sharp({ create: { width: 8, height: 8, channels: 3, background: 'red' } }).png().toBuffer();
    expect(await client.uploadImage(pic, 'example.png')).toEqual({ name: 'example (1).png' });
    engine.scriptNext({ stallAtStep: 1 });
    const a = await client.submit(txt2img().graph, 'adapter-2');
    const b = await client.submit(txt2img('sdxl_base.safetensors', 4).graph, 'adapter-2');
    if (!('promptId' in a) || !('promptId' in b)) throw new Error('refused');
    await waitFor(() => engine!.running?.stalled, 'the stall', 5_000);
    expect(await client.queue()).toEqual({ running: [a.promptId], pending: [b.promptId] });
    await client.deleteQueued([b.promptId]);
    await client.interrupt(a.promptId);
    expect(engine.queueEdits).toEqual([{ delete: [b.promptId] }]);
    expect(engine.interrupts).toEqual([{ prompt_id: a.promptId }]);
    await waitFor(async () => (await client.queue()).running.length === 0, 'the interrupt', 5_000);
    expect(await client.queue()).toEqual({ running: [], pending: [] });
  });

  it('turns a refusal into one sentence: a missing model file, a missing custom node', async () => {
    engine = await startFakeImageEngine({ packs: [] });
    const client = createComfyUiClient({ baseUrl: engine.url });
    const missingModel = await client.submit(txt2img('not_there.safetensors').graph, 'adapter-3');
    expect(missingModel).toEqual({
      refused: expect.objectContaining({ message: `The picture engine refused the picture's recipe: the model file "not_there.safetensors" is not in the picture engine's checkpoints folder (CheckpointLoaderSimple).`, missingClass: null }) as unknown,
    });
    const face = buildGraph({ pipeline: 'face_id', referenceFace: 'reference_face.png', checkpoint: 'sdxl_base.safetensors', seed: 1, width: 512, height: 512, hiRes: false, positive: 'a fox', negative: '', filenamePrefix: 'hearth/f' });
    const missingNode = await client.submit(face.graph, 'adapter-3');
    if (!('refused' in missingNode)) throw new Error('accepted');
    expect(missingNode.refused.missingClass).toMatch(/^IPAdapter/);
    expect(missingNode.refused.message).toMatch(/^The picture engine does not have the IPAdapter\w* node; the custom node pack that brings it is not installed\.$/);
  });

  it('fails with typed errors: unreachable when down or closed, a clear error on garbage', async () => {
    const closed = createComfyUiClient({ baseUrl: CLOSED_URL, timeoutMs: 2_000 });
    await expect(closed.systemStats()).rejects.toMatchObject({ name: 'ImageEngineError', failure: 'unreachable' });
    await expect(closed.connect('x')).rejects.toMatchObject({ name: 'ImageEngineError', failure: 'unreachable' });
    engine = await startFakeImageEngine();
    const client = createComfyUiClient({ baseUrl: engine.url });
    await engine.setMode('garbage');
    const err = await client.systemStats().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImageEngineError);
    expect(err).toMatchObject({ failure: 'bad_response' });
    expect((err as Error).message).toBe('The picture engine gave an answer Hearth could not read (system stats).');
    await engine.setMode('down');
    await expect(client.queue()).rejects.toMatchObject({ failure: 'unreachable' });
    // what every caller in the image-gen module sees: the same failure as its one answer
    await expect(withImageEngineAppErrors(client).queue()).rejects.toMatchObject({ status: 503, code: 'image_engine_unavailable' });
  });

  it('decodes binary frames per the reference layout (big-endian type and format)', () => {
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xd9]);
    const head = (...n: number[]) => Buffer.concat(n.map((v) => Buffer.from([v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255])));
    expect(decodeFrame(Buffer.concat([head(1, 1), jpeg]), true)).toEqual({ type: 'preview', format: 'jpeg', bytes: jpeg });
    expect(decodeFrame(Buffer.concat([head(1, 2), jpeg]), true)).toMatchObject({ format: 'png' });
    const meta = Buffer.from(JSON.stringify({ node_id: '3', prompt_id: 'p', image_type: 'image/jpeg' }));
    expect(decodeFrame(Buffer.concat([head(4, meta.length), meta, jpeg]), true)).toEqual({ type: 'preview', format: 'jpeg', bytes: jpeg });
    expect(decodeFrame(Buffer.concat([head(3, 1), Buffer.from('3hello')]), true)).toBeNull();
    expect(() => decodeFrame(head(4, 999), true)).toThrow(ImageEngineError);
    expect(decodeFrame(Buffer.from('{"type":"executing","data":{"node":null,"prompt_id":"p"}}'), false)).toEqual({ type: 'executing', promptId: 'p', node: null });
  });
});
