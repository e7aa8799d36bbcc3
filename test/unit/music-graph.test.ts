// The music recipe (server/modules/music/graph.ts): the Stable Audio model files found in the
// engine's lists by name, what is missing said as lines an admin acts on, the graph passing the
// engine's strict check, and a recording told from what is not one by its first bytes.
import { describe, expect, it } from 'vitest';
import { readObjectInfo } from '../../server/adapters/image-engine/object-info.js';
import { buildMusicGraph, graphProblem, musicModels, sniffMusic } from '../../server/modules/music/graph.js';
import { AUDIO_OBJECT_INFO, CORE_OBJECT_INFO } from '../fixtures/comfyui/index.js';

type Answer = Record<string, { input: { required: Record<string, unknown[]> } }>;
const withLists = (ckpts: string[], encoders: string[], audio = true) => {
  const a = JSON.parse(JSON.stringify({ ...CORE_OBJECT_INFO, ...(audio ? AUDIO_OBJECT_INFO : {}) })) as Answer;
  a.CheckpointLoaderSimple!.input.required.ckpt_name![0] = ckpts;
  a.CLIPLoader!.input.required.clip_name![0] = encoders;
  return readObjectInfo(a);
};

describe('music graph', () => {
  it('finds a stable-audio or stable_audio checkpoint and a T5-base encoder among the engine files', () => {
    expect(musicModels(withLists(['sdxl_base.safetensors', 'stable_audio_open_1.0.safetensors'], ['t5xxl_fp8_e4m3fn.safetensors', 't5-base.safetensors']))).toEqual({
      ok: true,
      models: { checkpoint: 'stable_audio_open_1.0.safetensors', encoder: 't5-base.safetensors' },
    });
  });

  it('says what is missing: the checkpoint, the encoder, the audio nodes', () => {
    const none = musicModels(withLists(['sdxl_base.safetensors'], ['t5xxl_fp8_e4m3fn.safetensors']));
    expect(none.ok).toBe(false);
    if (none.ok) return;
    expect(none.missing).toHaveLength(2);
    expect(none.missing[0]).toMatch(/Stable Audio Open checkpoint.*checkpoints/);
    expect(none.missing[1]).toMatch(/T5-base.*text_encoders/);
    const noNodes = musicModels(withLists(['stable-audio-open-1.0.safetensors'], ['t5_base.safetensors'], false));
    expect(noNodes.ok).toBe(false);
    if (!noNodes.ok) expect(noNodes.missing).toEqual([expect.stringMatching(/EmptyLatentAudio, VAEDecodeAudio, SaveAudio/)]);
  });

  it('builds a graph the engine accepts in strict mode, and names a value it would refuse', () => {
    const info = withLists(['stable-audio-open-1.0.safetensors'], ['t5_base.safetensors']);
    const req = { checkpoint: 'stable-audio-open-1.0.safetensors', encoder: 't5_base.safetensors', positive: 'piano', negative: 'noise', seconds: 47, seed: 7, filenamePrefix: 'hearth-music/x' };
    expect(graphProblem(buildMusicGraph(req), info)).toBeNull();
    const bad = buildMusicGraph(req);
    bad['5']!.inputs.seconds = 0.2;
    expect(graphProblem(bad, info)).toMatch(/EmptyLatentAudio/);
  });

  it('tells FLAC, WAV and Ogg from text', () => {
    expect(sniffMusic(Buffer.from('fLaC\0\0\0\x22'))?.contentType).toBe('audio/flac');
    expect(sniffMusic(Buffer.from('RIFF\x24\0\0\0WAVEfmt '))?.contentType).toBe('audio/wav');
    expect(sniffMusic(Buffer.from('OggS\0\x02'))?.contentType).toBe('audio/ogg');
    expect(sniffMusic(Buffer.from('<html>oops</html>'))).toBeNull();
  });
});
