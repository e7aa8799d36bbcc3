import { describe, expect, it } from 'vitest';
import { toProfile, type HardwareProfile } from '../../server/platform/hardware.js';
import { imageEngineArgv, imageEngineLaunch, probeImageEngineLaunch, type ImageEngineLaunch } from '../../server/platform/image-engine-flags.js';
import { COMFYUI_FLAGS, comfyuiArgvProblems } from '../fixtures/comfyui-flags.js';
import * as rec from '../fixtures/hardware/systeminformation.js';

const GB = 1024 ** 3;
const profileOf = (r: rec.SiRecording): HardwareProfile => toProfile(r);
const MPS = { PYTORCH_MPS_HIGH_WATERMARK_RATIO: '0.0' };

interface Row {
  recording: rec.SiRecording;
  pin?: number | null;
  expect: Pick<ImageEngineLaunch, 'target' | 'dtype' | 'args' | 'env'> & { gpuModel: string | null; note?: RegExp };
}

// The spec's table, as corrected by the engine's real flags (API.md §8).
const ROWS: Row[] = [
  { recording: rec.M1_MAC_MINI, expect: { target: 'apple-m1', dtype: 'fp16', args: ['--force-fp16', '--preview-method', 'auto'], env: MPS, gpuModel: null } },
  { recording: rec.M2_PRO_MACBOOK, expect: { target: 'apple-silicon', dtype: 'bf16', args: ['--bf16-unet', '--preview-method', 'auto'], env: MPS, gpuModel: null } },
  { recording: rec.M3_MAX_STUDIO, expect: { target: 'apple-silicon', dtype: 'bf16', args: ['--bf16-unet', '--preview-method', 'auto'], env: MPS, gpuModel: null } },
  {
    recording: rec.NVIDIA_SINGLE_LINUX,
    expect: { target: 'nvidia', dtype: 'fp8', args: ['--gpu-only', '--fp8_e4m3fn-unet', '--preview-method', 'auto'], env: { CUDA_DEVICE_ORDER: 'PCI_BUS_ID', CUDA_VISIBLE_DEVICES: '0' }, gpuModel: 'GA106 [GeForce RTX 3060 Lite Hash Rate]' },
  },
  {
    recording: rec.NVIDIA_DUAL_WINDOWS,
    expect: { target: 'nvidia', dtype: 'fp8', args: ['--gpu-only', '--fp8_e4m3fn-unet', '--preview-method', 'auto'], env: { CUDA_DEVICE_ORDER: 'PCI_BUS_ID', CUDA_VISIBLE_DEVICES: '1' }, gpuModel: 'NVIDIA GeForce RTX 4090' },
  },
  {
    recording: rec.NVIDIA_DUAL_WINDOWS,
    pin: 0,
    expect: { target: 'nvidia', dtype: 'fp8', args: ['--gpu-only', '--fp8_e4m3fn-unet', '--preview-method', 'auto'], env: { CUDA_DEVICE_ORDER: 'PCI_BUS_ID', CUDA_VISIBLE_DEVICES: '0' }, gpuModel: 'NVIDIA GeForce RTX 3060' },
  },
  {
    recording: rec.NVIDIA_DUAL_WINDOWS,
    pin: 2,
    expect: { target: 'nvidia', dtype: 'fp8', args: ['--gpu-only', '--fp8_e4m3fn-unet', '--preview-method', 'auto'], env: { CUDA_DEVICE_ORDER: 'PCI_BUS_ID', CUDA_VISIBLE_DEVICES: '1' }, gpuModel: 'NVIDIA GeForce RTX 4090', note: /comfyui_gpu_index 2 ignored: this computer has 2 NVIDIA GPUs/ },
  },
  {
    recording: rec.NVIDIA_HYBRID_LAPTOP,
    expect: { target: 'nvidia', dtype: 'fp8', args: ['--gpu-only', '--fp8_e4m3fn-unet', '--preview-method', 'auto'], env: { CUDA_DEVICE_ORDER: 'PCI_BUS_ID', CUDA_VISIBLE_DEVICES: '0' }, gpuModel: 'NVIDIA GeForce RTX 3070 Laptop GPU' },
  },
  { recording: rec.AMD_LINUX, expect: { target: 'unknown-gpu', dtype: 'fp16', args: ['--lowvram', '--preview-method', 'auto'], env: {}, gpuModel: 'Navi 21 [Radeon RX 6800/6800 XT / 6900 XT]' } },
  { recording: rec.INTEL_IGPU_WINDOWS, expect: { target: 'unknown-gpu', dtype: 'fp16', args: ['--lowvram', '--preview-method', 'auto'], env: {}, gpuModel: 'Intel(R) Iris(R) Xe Graphics' } },
  { recording: rec.NO_GPU_LINUX, expect: { target: 'cpu', dtype: 'fp32', args: ['--cpu', '--preview-method', 'auto'], env: {}, gpuModel: null } },
  { recording: rec.BMC_ONLY_SERVER, expect: { target: 'cpu', dtype: 'fp32', args: ['--cpu', '--preview-method', 'auto'], env: {}, gpuModel: null } },
  { recording: rec.GRAPHICS_FAILED_LINUX, expect: { target: 'cpu', dtype: 'fp32', args: ['--cpu', '--preview-method', 'auto'], env: {}, gpuModel: null } },
  { recording: rec.M2_PRO_MACBOOK, pin: 1, expect: { target: 'apple-silicon', dtype: 'bf16', args: ['--bf16-unet', '--preview-method', 'auto'], env: MPS, gpuModel: null, note: /Apple Silicon has one GPU/ } },
];

// every command line the mapper produces: each recorded row, plus the fallback for a probe that throws
const launches: Array<{ name: string; launch: ImageEngineLaunch }> = [
  ...ROWS.map((r) => ({ name: r.recording.name, launch: imageEngineLaunch(profileOf(r.recording), r.pin ?? null) })),
  { name: 'probe that throws', launch: await probeImageEngineLaunch(() => Promise.reject(new Error('no probe'))) },
];

describe('image engine launch flags over recorded probes', () => {
  for (const row of ROWS) {
    const pin = row.pin ?? null;
    it(`${row.recording.name}${pin !== null ? `, comfyui_gpu_index ${pin}` : ''}: ${row.expect.target} ${row.expect.dtype}`, () => {
      const launch = imageEngineLaunch(profileOf(row.recording), pin);
      expect({ target: launch.target, dtype: launch.dtype, args: launch.args, env: launch.env }).toEqual({
        target: row.expect.target,
        dtype: row.expect.dtype,
        args: row.expect.args,
        env: row.expect.env,
      });
      expect(launch.gpu?.model ?? null).toBe(row.expect.gpuModel);
      if (row.expect.note) expect(launch.note).toMatch(row.expect.note);
      else expect(launch.note).toBeNull();
    });
  }

  it('gives the CUDA ordinal among NVIDIA cards, not the position among all adapters', () => {
    const launch = imageEngineLaunch(profileOf(rec.NVIDIA_HYBRID_LAPTOP));
    expect(launch.gpu).toMatchObject({ vendor: 'nvidia', cudaIndex: 0, vramBytes: 8 * GB });
  });

  it('lets the most VRAM win across vendors: a bigger AMD card beats a small NVIDIA one', () => {
    const hw = profileOf(rec.AMD_LINUX);
    hw.gpus.push({ vendor: 'nvidia', model: 'GeForce GTX 1650', vramBytes: 4 * GB });
    expect(imageEngineLaunch(hw).target).toBe('unknown-gpu');
    // …unless the household pins the NVIDIA card
    expect(imageEngineLaunch(hw, 0)).toMatchObject({ target: 'nvidia', env: { CUDA_VISIBLE_DEVICES: '0' } });
  });

  it('ignores a pin that is not a whole number', () => {
    const launch = imageEngineLaunch(profileOf(rec.NVIDIA_SINGLE_LINUX), 0.5);
    expect(launch.env.CUDA_VISIBLE_DEVICES).toBe('0');
    expect(launch.note).toMatch(/ignored/);
  });

  it('falls back to the unknown-GPU row when the probe throws', async () => {
    const launch = await probeImageEngineLaunch(() => Promise.reject(new Error('WMI timed out')));
    expect(launch).toMatchObject({ target: 'unknown-gpu', dtype: 'fp16', args: ['--lowvram', '--preview-method', 'auto'], env: {}, gpu: null });
    expect(launch.note).toMatch(/hardware probe failed \(WMI timed out\)/);
  });

  it('maps a probe that answers the same as the pure mapper', async () => {
    const hw = profileOf(rec.M1_MAC_MINI);
    expect(await probeImageEngineLaunch(() => Promise.resolve(hw))).toEqual(imageEngineLaunch(hw));
  });
});

describe('every produced command line against the engine flag list (API.md §8)', () => {
  it('has no flag the engine would refuse, and keeps the engine on loopback', () => {
    for (const { name, launch } of launches) {
      const argv = imageEngineArgv(launch, { port: 8188, outputDir: '/data/image-gen/output', extraModelPathsConfig: '/data/image-gen/extra_model_paths.yaml' });
      expect({ name, problems: comfyuiArgvProblems(argv) }).toEqual({ name, problems: [] });
      expect(argv.slice(0, 5)).toEqual(['--listen', '127.0.0.1', '--port', '8188', '--disable-auto-launch']);
      expect(argv).not.toContain('--use-xformers');
      expect(argv.includes('--gpu-only') && argv.includes('--lowvram')).toBe(false);
      expect(argv.join(' ')).toContain('--preview-method auto');
      if (launch.dtype === 'fp8') expect(argv).toContain('--fp8_e4m3fn-unet');
    }
  });

  it('the checker itself refuses what argparse refuses', () => {
    expect(COMFYUI_FLAGS['--use-xformers']).toBeUndefined();
    expect(comfyuiArgvProblems(['--gpu-only', '--use-xformers'])).toEqual(['unrecognized arguments: --use-xformers']);
    expect(comfyuiArgvProblems(['--gpu-only', '--lowvram'])).toEqual(['argument --lowvram: not allowed with argument --gpu-only']);
    expect(comfyuiArgvProblems(['--preview-method'])).toEqual(['argument --preview-method: expected a value']);
    expect(comfyuiArgvProblems(['--preview-method', 'fast'])).toEqual(['argument --preview-method: invalid choice fast']);
    expect(comfyuiArgvProblems(['--force-fp16', 'yes'])).toEqual(['unexpected value yes']);
    expect(comfyuiArgvProblems(['--listen', '--port', '8188'])).toEqual([]);
  });
});
