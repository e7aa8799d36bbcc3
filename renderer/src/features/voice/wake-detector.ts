// The wake-word detector in the browser: the microphone through an AudioWorklet
// (/audio/wake-worklet.js: 16 kHz blocks of int16-valued floats) into the openWakeWord pipeline
// (wake-pipeline.ts) on onnxruntime-web, whose wasm comes from Hearth itself (wasmPaths), as do the
// models. Only on a secure page (AudioWorklet and the microphone exist nowhere else).
import type { VoiceConfigResponse } from '../../../../server/modules/voice/schema.js';
import { DETECTION_THRESHOLD, loadWakeModels, WakePipeline } from './wake-pipeline';

export interface WakeDetector {
  /** Stops hearing (while Hearth listens to a question or speaks): blocks are dropped. */
  pause(): void;
  /** Hears again, forgetting what was heard before. */
  resume(): void;
  stop(): void;
}

export function canDetectWakeWords(): boolean {
  return window.isSecureContext && typeof AudioWorkletNode !== 'undefined' && !!navigator.mediaDevices?.getUserMedia;
}

async function bytesOf(url: string): Promise<Uint8Array> {
  const res = await fetch(url, { credentials: 'same-origin' });
  if (!res.ok) throw new Error('The wake-word model could not be loaded from Hearth.');
  return new Uint8Array(await res.arrayBuffer());
}

/** Starts listening on `stream` for the wake word `id`; `onDetect` runs once per detection. */
export async function startWakeDetector(config: VoiceConfigResponse, id: string, stream: MediaStream, onDetect: () => void): Promise<WakeDetector> {
  const word = config.wakeWords.find((w) => w.id === id);
  if (!word || !config.wakeWordRuntimeUrl || config.featureModelUrls.length !== 2) throw new Error('This wake word is not available on Hearth.');
  const ort = await import('onnxruntime-web/wasm');
  ort.env.wasm.wasmPaths = config.wakeWordRuntimeUrl;
  ort.env.wasm.numThreads = 1;
  const [mel, embedding, keyword] = await Promise.all([bytesOf(config.featureModelUrls[0]!), bytesOf(config.featureModelUrls[1]!), bytesOf(word.modelUrl)]);
  const models = await loadWakeModels(ort, [mel, embedding], { [id]: keyword });
  const pipeline = new WakePipeline(ort, models);

  const ctx = new AudioContext();
  // started by the member's tap on Voice mode; a browser that still holds it back is asked again
  await ctx.resume().catch(() => undefined);
  await ctx.audioWorklet.addModule('/audio/wake-worklet.js');
  const source = ctx.createMediaStreamSource(stream);
  const node = new AudioWorkletNode(ctx, 'wake-word-capture');
  // the node must reach the destination to be pulled; it writes nothing, so nothing is heard
  source.connect(node).connect(ctx.destination);
  let paused = false;
  let stopped = false;
  let queue = Promise.resolve();
  node.port.onmessage = (e: MessageEvent<Float32Array>) => {
    if (paused || stopped) return;
    const block = e.data;
    // one block at a time, in order; a slow device drops nothing, it only falls behind
    queue = queue.then(async () => {
      if (paused || stopped) return;
      const scores = await pipeline.push(block);
      if ((scores[id] ?? 0) > DETECTION_THRESHOLD && !paused && !stopped) {
        paused = true;
        pipeline.reset();
        onDetect();
      }
    }).catch(() => {
      // one block the runtime could not score: the next ones are tried
    });
  };
  return {
    pause: () => {
      paused = true;
    },
    resume: () => {
      pipeline.reset();
      paused = false;
    },
    stop: () => {
      stopped = true;
      node.port.onmessage = null;
      source.disconnect();
      node.disconnect();
      void ctx.close();
    },
  };
}
