// Hardware fit for the image engine (ComfyUI): a HardwareProfile becomes the engine's launch flags,
// environment and weight dtype. The spec's table ("Image generation") is followed as corrected by
// the engine's real argparse (reference/comfyui/API.md §8): there is no --use-xformers (exit 2),
// fp8 only happens with --fp8_e4m3fn-unet, --gpu-only and --lowvram are mutually exclusive, and
// previews need --preview-method auto. Pure; the sidecar definition adds the process around it.
import type { GpuInfo, HardwareProbe, HardwareProfile } from './hardware.js';

export type ImageEngineTarget = 'apple-silicon' | 'apple-m1' | 'nvidia' | 'unknown-gpu' | 'cpu';
export type ImageEngineDtype = 'bf16' | 'fp16' | 'fp8' | 'fp32';

export interface ImageEngineLaunch {
  target: ImageEngineTarget;
  dtype: ImageEngineDtype;
  /** Engine flags for the hardware; listen address, port and folders come from imageEngineArgv. */
  args: string[];
  env: Record<string, string>;
  /** The GPU the engine runs on (null on Apple Silicon's unified GPU, CPU-only hosts and after a failed probe). */
  gpu: (GpuInfo & { cudaIndex: number | null }) | null;
  /** Why the pin was ignored or the probe was not used; null when the table applied cleanly. */
  note: string | null;
}

/** torch's MPS allocator otherwise refuses allocations above ~70 % of unified memory. */
export const MPS_ENV: Readonly<Record<string, string>> = { PYTORCH_MPS_HIGH_WATERMARK_RATIO: '0.0' };

/**
 * Display adapters that cannot run the engine at all (server BMCs, virtual machines). They are not
 * "unknown GPUs": --lowvram on them fails at start because torch finds no device, so they count as
 * no GPU.
 */
const DISPLAY_ONLY = /aspeed|matrox|vmware|virtualbox|qxl|virtio|cirrus|bochs|hyper-v|basic (display|render)|llvmpipe|swiftshader/i;

/** Every launch shows preview frames while sampling (the engine's default is none). */
const PREVIEW_ARGS = ['--preview-method', 'auto'] as const;

const launch = (l: Omit<ImageEngineLaunch, 'args'> & { args: string[] }): ImageEngineLaunch => ({ ...l, args: [...l.args, ...PREVIEW_ARGS] });

function unknownGpu(gpu: ImageEngineLaunch['gpu'], note: string | null): ImageEngineLaunch {
  return launch({ target: 'unknown-gpu', dtype: 'fp16', args: ['--lowvram'], env: {}, gpu, note });
}

/**
 * The launch configuration for this machine.
 *
 * `pinnedGpuIndex` is the app setting comfyui_gpu_index: a CUDA device ordinal, i.e. the position
 * among the NVIDIA GPUs as nvidia-smi numbers them (integrated GPUs do not count). Without a valid
 * pin the GPU with the most VRAM wins (the first listed on a tie).
 */
export function imageEngineLaunch(hw: HardwareProfile, pinnedGpuIndex: number | null = null): ImageEngineLaunch {
  if (hw.appleSiliconGeneration !== null) {
    // unified memory: no device to choose, and no pin to honour
    const note = pinnedGpuIndex !== null ? `comfyui_gpu_index ${pinnedGpuIndex} ignored: Apple Silicon has one GPU` : null;
    if (hw.appleSiliconGeneration >= 2) {
      // M2 and later compute bf16 natively; the flag makes the table's dtype explicit
      return launch({ target: 'apple-silicon', dtype: 'bf16', args: ['--bf16-unet'], env: { ...MPS_ENV }, gpu: null, note });
    }
    return launch({ target: 'apple-m1', dtype: 'fp16', args: ['--force-fp16'], env: { ...MPS_ENV }, gpu: null, note });
  }

  const gpus = hw.gpus.filter((g) => g.vendor !== 'apple' && !(g.vendor === 'other' && DISPLAY_ONLY.test(g.model)));
  const nvidia = gpus.filter((g) => g.vendor === 'nvidia');
  let note: string | null = null;
  let chosen: GpuInfo | undefined;
  if (pinnedGpuIndex !== null) {
    if (Number.isInteger(pinnedGpuIndex) && pinnedGpuIndex >= 0 && pinnedGpuIndex < nvidia.length) chosen = nvidia[pinnedGpuIndex];
    else note = `comfyui_gpu_index ${pinnedGpuIndex} ignored: this computer has ${nvidia.length} NVIDIA GPU${nvidia.length === 1 ? '' : 's'}`;
  }
  chosen ??= gpus.reduce<GpuInfo | undefined>((best, g) => (!best || g.vramBytes > best.vramBytes ? g : best), undefined);

  if (!chosen) {
    // not in the spec's table: without any GPU the engine only starts with --cpu
    return launch({ target: 'cpu', dtype: 'fp32', args: ['--cpu'], env: {}, gpu: null, note });
  }
  if (chosen.vendor !== 'nvidia') return unknownGpu({ ...chosen, cudaIndex: null }, note);

  const cudaIndex = nvidia.indexOf(chosen);
  return launch({
    target: 'nvidia',
    dtype: 'fp8',
    args: ['--gpu-only', '--fp8_e4m3fn-unet'],
    // PCI bus order makes the ordinal match nvidia-smi's numbering, which the probe lists in;
    // CUDA's default (fastest first) could point the index at another card
    env: { CUDA_DEVICE_ORDER: 'PCI_BUS_ID', CUDA_VISIBLE_DEVICES: String(cudaIndex) },
    gpu: { ...chosen, cudaIndex },
    note,
  });
}

/** Probes, then maps; a probe that throws gives the spec's "unknown GPU" row, which starts anywhere a GPU does. */
export async function probeImageEngineLaunch(probe: HardwareProbe, pinnedGpuIndex: number | null = null): Promise<ImageEngineLaunch> {
  try {
    return imageEngineLaunch(await probe(), pinnedGpuIndex);
  } catch (err) {
    return unknownGpu(null, `hardware probe failed (${(err as Error).message}); using the unknown-GPU settings`);
  }
}

/** The engine's full argument list after main.py: loopback only, our port, no browser, then the hardware flags. */
export function imageEngineArgv(l: ImageEngineLaunch, opts: { port: number; outputDir?: string; extraModelPathsConfig?: string }): string[] {
  return [
    '--listen',
    '127.0.0.1',
    '--port',
    String(opts.port),
    '--disable-auto-launch',
    ...(opts.outputDir ? ['--output-directory', opts.outputDir] : []),
    ...(opts.extraModelPathsConfig ? ['--extra-model-paths-config', opts.extraModelPathsConfig] : []),
    ...l.args,
  ];
}
