// The fake image engine itself (test/fakes/image-engine.ts): it refuses a bad graph with
// ComfyUI's own 400 body, runs a good one with the reference's frame order and binary previews,
// writes real pictures, and its failure modes (stall, crash, execution_error) behave as described.
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildGraph } from '../../server/modules/image-gen/workflow-graph.js';
import { startFakeImageEngine, type FakeImageEngine } from '../fakes/image-engine.js';
import { waitFor } from '../harness/net.js';

let engine: FakeImageEngine | null = null;
afterEach(async () => {
  await engine?.close();
  engine = null;
});

const txt2img = (steps = 3) =>
  buildGraph({ pipeline: 'txt2img', checkpoint: 'sdxl_base.safetensors', seed: 1, width: 512, height: 512, hiRes: false, steps, positive: 'a fox', negative: 'blurry', filenamePrefix: 'hearth/job1' });

interface Collected {
  json: { type: string; data: Record<string, unknown> }[];
  binary: Buffer[];
  ws: WebSocket;
}
async function connect(url: string, clientId: string): Promise<Collected> {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/ws?clientId=${clientId}`);
  const c: Collected = { json: [], binary: [], ws };
  ws.on('message', (data: Buffer, isBinary) => {
    if (isBinary) c.binary.push(data);
    else c.json.push(JSON.parse(String(data)) as Collected['json'][number]);
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return c;
}
const post = (url: string, body: unknown) => fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

describe('the fake image engine', () => {
  it("refuses an invalid graph with the engine's own 400 body", async () => {
    engine = await startFakeImageEngine();
    const built = txt2img();
    const sampler = built.samplers[0]!.node;
    const bad = structuredClone(built.graph) as Record<string, { class_type: string; inputs: Record<string, unknown> }>;
    bad[sampler]!.inputs.sampler_name = 'dpmpp_2m_karras';
    const res = await post(`${engine.url}/prompt`, { prompt: bad, client_id: 'c1' });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: Record<string, unknown>; node_errors: Record<string, { errors: { type: string; details: string }[]; class_type: string }> };
    expect(body.error).toMatchObject({ type: 'prompt_outputs_failed_validation', message: 'Prompt outputs failed validation' });
    expect(body.node_errors[sampler]).toMatchObject({ class_type: 'KSampler', errors: [{ type: 'value_not_in_list', details: "sampler_name: 'dpmpp_2m_karras' not in (list of length 42)" }] });

    const unknown = await post(`${engine.url}/api/prompt`, { prompt: { '1': { class_type: 'NoSuchPackNode', inputs: {} } } });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({ error: { type: 'invalid_prompt', message: 'Cannot execute because node NoSuchPackNode does not exist.', details: "Node ID '#1'", extra_info: {} }, node_errors: {} });
    expect(engine.prompts).toHaveLength(0);
  });

  it('leaves out custom packs and model files when asked', async () => {
    engine = await startFakeImageEngine({ packs: [], files: { ckpt_name: [] } });
    const info = (await (await fetch(`${engine.url}/object_info`)).json()) as Record<string, { input: { required: Record<string, unknown[]> } }>;
    expect(info.IPAdapterUnifiedLoader).toBeUndefined();
    expect(info.CheckpointLoaderSimple!.input.required.ckpt_name![0]).toEqual([]);
    const res = await post(`${engine.url}/prompt`, { prompt: txt2img().graph });
    expect(res.status).toBe(400);
  });

  it('runs a graph: frames in the reference order, JPEG previews per step, a real PNG, the history', async () => {
    engine = await startFakeImageEngine({ stepMs: 1 });
    const c = await connect(engine.url, 'client-a');
    const built = txt2img(3);
    const res = await post(`${engine.url}/prompt`, { prompt: built.graph, client_id: 'client-a' });
    expect(res.status).toBe(200);
    const { prompt_id: id, number } = (await res.json()) as { prompt_id: string; number: number };
    expect(number).toBe(0);
    await waitFor(() => c.json.some((m) => m.type === 'executing' && m.data.node === null), 'the end marker', 10_000);
    const types = c.json.map((m) => m.type);
    expect(types[0]).toBe('status');
    expect(types.indexOf('execution_start')).toBeLessThan(types.indexOf('execution_cached'));
    expect(types.indexOf('executed')).toBeLessThan(types.indexOf('execution_success'));
    const samplerProgress = c.json.filter((m) => m.type === 'progress' && m.data.node === built.samplers[0]!.node);
    expect(samplerProgress.map((m) => m.data.value)).toEqual([1, 2, 3]);
    // tile progress from the tiled decode is there too, under its own node
    expect(c.json.some((m) => m.type === 'progress' && m.data.node !== built.samplers[0]!.node)).toBe(true);
    expect(c.binary).toHaveLength(3);
    expect(c.binary[0]!.readUInt32BE(0)).toBe(1);
    expect(c.binary[0]!.readUInt32BE(4)).toBe(1);
    expect((await sharp(c.binary[0]!.subarray(8)).metadata()).format).toBe('jpeg');
    const executed = c.json.find((m) => m.type === 'executed')!.data as { node: string; output: { images: { filename: string; subfolder: string; type: string }[] } };
    expect(executed.node).toBe(built.outputNode);
    const ref = executed.output.images[0]!;
    expect(ref.subfolder).toBe('hearth');
    const view = await fetch(`${engine.url}/view?filename=${encodeURIComponent(ref.filename)}&subfolder=${ref.subfolder}&type=output`);
    expect(view.headers.get('content-type')).toBe('image/png');
    expect((await sharp(Buffer.from(await view.arrayBuffer())).metadata()).format).toBe('png');
    const history = (await (await fetch(`${engine.url}/history/${id}`)).json()) as Record<string, { status: { status_str: string } }>;
    expect(history[id]!.status.status_str).toBe('success');
    c.ws.close();
  });

  it('sends previews with metadata (event 4) after feature_flags, and animated WebP for video', async () => {
    engine = await startFakeImageEngine({ stepMs: 1 });
    const c = await connect(engine.url, 'client-v');
    c.ws.send(JSON.stringify({ type: 'feature_flags', data: { supports_preview_metadata: true } }));
    await waitFor(() => c.json.some((m) => m.type === 'feature_flags'), 'feature_flags answer', 5_000);
    const built = buildGraph({ pipeline: 'video', checkpoint: 'sdxl_base.safetensors', motionModule: 'mm_sdxl_v10_beta.ckpt', seed: 1, width: 384, height: 256, frames: 8, fastMode: true, positive: 'waves', negative: '', filenamePrefix: 'hearth/v' });
    const res = await post(`${engine.url}/prompt`, { prompt: built.graph, client_id: 'client-v' });
    expect(res.status, await res.clone().text()).toBe(200);
    await waitFor(() => c.json.some((m) => m.type === 'executing' && m.data.node === null), 'the end marker', 10_000);
    expect(c.binary.length).toBeGreaterThan(0);
    const frame = c.binary[0]!;
    expect(frame.readUInt32BE(0)).toBe(4);
    const len = frame.readUInt32BE(4);
    expect(JSON.parse(frame.subarray(8, 8 + len).toString('utf8'))).toMatchObject({ image_type: 'image/jpeg' });
    const executed = c.json.find((m) => m.type === 'executed')!.data as { output: { images: { filename: string; subfolder: string }[]; animated: boolean[] } };
    expect(executed.output.animated).toEqual([true]);
    const ref = executed.output.images[0]!;
    const bytes = Buffer.from(await (await fetch(`${engine.url}/view?filename=${ref.filename}&subfolder=${ref.subfolder}`)).arrayBuffer());
    const meta = await sharp(bytes, { animated: true }).metadata();
    expect(meta.format).toBe('webp');
    // every frame of the batch, at the latent's size, 1000/fps ms each
    expect(meta).toMatchObject({ pages: 8, width: 384, pageHeight: 256, delay: Array(8).fill(125) });
    c.ws.close();
  });

  it('uploads with the engine renaming, stalls until interrupted, fails with execution_error, and crashes', async () => {
    engine = await startFakeImageEngine({ stepMs: 1 });
    const boundary = '----fake-engine-test';
    const form = (bytes: Buffer) =>
      Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="face.png"\r\nContent-Type: image/png\r\n\r\n`),
        bytes,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
    const a = await sharp({ create: { width: 8, height: 8, channels: 3, background: 'red' } }).png().toBuffer();
    const b = await sharp({ create: { width: 8, height: 8, channels: 3, background: 'blue' } }).png().toBuffer();
    const up = async (bytes: Buffer) => ((await (await fetch(`${engine!.url}/upload/image`, { method: 'POST', headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` }, body: form(bytes) })).json()) as { name: string }).name;
    expect(await up(a)).toBe('face.png');
    expect(await up(a)).toBe('face.png');
    expect(await up(b)).toBe('face (1).png');

    const c = await connect(engine.url, 'client-s');
    engine.scriptNext({ stallAtStep: 2 });
    const { prompt_id: stalled } = (await (await post(`${engine.url}/prompt`, { prompt: txt2img(4).graph, client_id: 'client-s' })).json()) as { prompt_id: string };
    await waitFor(() => engine!.running?.stalled, 'the stall', 5_000);
    const queued = (await (await fetch(`${engine.url}/queue`)).json()) as { queue_running: unknown[][] };
    expect(queued.queue_running[0]![1]).toBe(stalled);
    await post(`${engine.url}/interrupt`, { prompt_id: stalled });
    await waitFor(() => c.json.some((m) => m.type === 'execution_interrupted'), 'interrupted', 5_000);

    engine.scriptNext({ failAtStep: 1 });
    await post(`${engine.url}/prompt`, { prompt: txt2img(4).graph, client_id: 'client-s' });
    const err = await waitFor(() => c.json.find((m) => m.type === 'execution_error'), 'execution_error', 5_000);
    expect(err.data).toMatchObject({ exception_type: 'torch.OutOfMemoryError', node_type: 'KSampler' });

    engine.scriptNext({ crashAtStep: 2 });
    const closed = new Promise((r) => c.ws.once('close', r));
    await post(`${engine.url}/prompt`, { prompt: txt2img(4).graph, client_id: 'client-s' });
    await closed;
    await expect(fetch(`${engine.url}/system_stats`)).rejects.toThrow();
    await engine.restart();
    expect((await fetch(`${engine.url}/system_stats`)).status).toBe(200);
    expect(await (await fetch(`${engine.url}/history/${stalled}`)).json()).toEqual({});
  });
});
