// The archive-server runtime (the Kiwix tools): which bundle this platform downloads, and putting
// a downloaded bundle in place under DATA_DIR/components/kiwix-tools/bin, where findKiwixServe()
// looks. Platforms without an official bundle (macOS) get the package-manager command instead.
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { UnprocessableError } from '../../errors.js';
import { downloadInWorker } from '../../adapters/web/download-worker.js';
import { kiwixToolsBinDir } from '../../platform/sidecars/archive-server.js';
import type { SsrfGuard } from '../../platform/ssrf.js';
import { unpackBundle } from '../../platform/unpack.js';

const RELEASES = 'https://download.kiwix.org/release/kiwix-tools';

/** The official bundles (these names always redirect to the latest release). */
export const KIWIX_TOOLS_BUNDLES: Readonly<Record<string, string>> = {
  'linux-x64': `${RELEASES}/kiwix-tools_linux-x86_64.tar.gz`,
  'linux-arm64': `${RELEASES}/kiwix-tools_linux-aarch64.tar.gz`,
  'win32-x64': `${RELEASES}/kiwix-tools_win-x86_64.zip`,
};

export type KiwixToolsSource = { kind: 'bundle'; url: string } | { kind: 'package-manager'; command: string; message: string };

/** KIWIX_TOOLS_URL when set, else the official bundle for this platform, else how to get it from a package manager. */
export function kiwixToolsSource(platform: NodeJS.Platform, arch: string, override?: string): KiwixToolsSource {
  if (override) return { kind: 'bundle', url: override };
  const url = KIWIX_TOOLS_BUNDLES[`${platform}-${arch}`];
  if (url) return { kind: 'bundle', url };
  if (platform === 'darwin') {
    return {
      kind: 'package-manager',
      command: 'brew install kiwix-tools',
      message: 'Kiwix publishes no tools bundle for macOS. Install them with Homebrew (brew install kiwix-tools) in Terminal, then press Install again: Hearth finds kiwix-serve by itself.',
    };
  }
  return {
    kind: 'package-manager',
    command: 'sudo apt install kiwix-tools',
    message: `Kiwix publishes no tools bundle for ${platform}-${arch}. Install kiwix-tools with the system's package manager (for example sudo apt install kiwix-tools), then press Install again.`,
  };
}

const SERVE_NAMES = new Set(['kiwix-serve', 'kiwix-serve.exe']);

/** The folder inside an unpacked bundle that holds kiwix-serve (bundles wrap it in a versioned folder). */
async function findServeDir(root: string, depth = 3): Promise<string | null> {
  const entries = await readdir(root, { withFileTypes: true });
  if (entries.some((e) => e.isFile() && SERVE_NAMES.has(e.name))) return root;
  if (depth === 0) return null;
  for (const e of entries) {
    if (!e.isDirectory()) continue;
    const found = await findServeDir(path.join(root, e.name), depth - 1);
    if (found) return found;
  }
  return null;
}

export interface InstallToolsOptions {
  guard: SsrfGuard;
  url: string;
  dataDir: string;
  platform: NodeJS.Platform;
  signal: AbortSignal;
  stallTimeoutMs: number;
  onProgress: (p: { bytesDone: number; bytesTotal: number | null }) => void;
  onStep: (state: 'extracting' | 'placing') => void;
  /** Called when the old tools folder cannot be replaced (Windows keeps a running .exe locked). */
  release: () => Promise<void>;
}

/**
 * Downloads the bundle (resumable, through the SSRF guard), unpacks it next to the tools folder,
 * and swaps the folder holding kiwix-serve in as components/kiwix-tools/bin. Returns the path of
 * kiwix-serve. A failed or cancelled install leaves the previous tools as they were.
 */
export async function installKiwixTools(o: InstallToolsOptions): Promise<{ binary: string; bytes: number; resumedFrom: number }> {
  const bin = kiwixToolsBinDir(o.dataDir);
  const root = path.dirname(bin);
  const fileName = (decodeURIComponent(new URL(o.url).pathname.split('/').pop() ?? '') || 'kiwix-tools-bundle').replace(/[^A-Za-z0-9._-]/g, '_');
  const bundle = path.join(root, 'downloads', fileName);
  const result = await downloadInWorker({ guard: o.guard, url: o.url, dest: bundle, signal: o.signal, stallTimeoutMs: o.stallTimeoutMs, onProgress: o.onProgress });

  const tag = randomBytes(4).toString('hex');
  const staging = path.join(root, `.unpack-${tag}`);
  const old = path.join(root, `.old-${tag}`);
  try {
    o.onStep('extracting');
    await mkdir(staging, { recursive: true });
    await unpackBundle(bundle, staging);
    const serveDir = await findServeDir(staging);
    if (!serveDir) throw new UnprocessableError('unusable_bundle', 'The downloaded bundle has no kiwix-serve in it.');
    if (o.platform !== 'win32') {
      for (const e of await readdir(serveDir, { withFileTypes: true })) {
        if (e.isFile() && !e.name.includes('.')) await chmod(path.join(serveDir, e.name), 0o755);
      }
    }
    if (o.signal.aborted) throw o.signal.reason;
    o.onStep('placing');
    const swap = async () => {
      let moved = false;
      try {
        await rename(bin, old);
        moved = true;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
      try {
        await rename(serveDir, bin);
      } catch (err) {
        if (moved) await rename(old, bin).catch(() => undefined);
        throw err;
      }
    };
    try {
      await swap();
    } catch {
      await o.release();
      await swap();
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
    await rm(old, { recursive: true, force: true }).catch(() => undefined);
  }
  await rm(bundle, { force: true });
  const binary = path.join(bin, o.platform === 'win32' ? 'kiwix-serve.exe' : 'kiwix-serve');
  return { binary, bytes: result.bytes, resumedFrom: result.resumedFrom };
}
