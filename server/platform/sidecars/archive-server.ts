// The archive server (kiwix-serve) as a supervised sidecar: where its binary is, and its command
// line. Always on 127.0.0.1; -n drops kiwix's injected search bar; -a ties its life to ours.
import path from 'node:path';
import { findProgram } from '../find-program.js';
import type { SidecarDefinition } from './supervisor.js';

export interface ArchiveServerConfig {
  files: string[];
}

/** Where install-kiwix puts the Kiwix tools (kiwix-serve and its siblings). */
export const kiwixToolsBinDir = (dataDir: string) => path.join(dataDir, 'components', 'kiwix-tools', 'bin');

// Homebrew's folders: an app started from the Dock or Finder gets a PATH without them.
const HOMEBREW_BIN = ['/opt/homebrew/bin', '/usr/local/bin'];

/**
 * KIWIX_SERVE_PATH, then the bundled resources/bin/<platform>-<arch>/, then the installed runtime
 * (DATA_DIR/components/kiwix-tools/bin), then PATH (on macOS also Homebrew's folders).
 */
export function findKiwixServe(opts: { explicit?: string; resourcesDir: string; dataDir: string; searchPath: string[]; platform?: NodeJS.Platform; arch?: string }): string | null {
  const platform = opts.platform ?? process.platform;
  const arch = opts.arch ?? process.arch;
  if (opts.explicit) return findProgram([path.basename(opts.explicit).replace(/\.exe$/, '')], [path.dirname(opts.explicit)], platform);
  return findProgram(
    ['kiwix-serve'],
    [
      path.join(opts.resourcesDir, 'bin', `${platform}-${arch}`),
      kiwixToolsBinDir(opts.dataDir),
      ...opts.searchPath,
      ...(platform === 'darwin' ? HOMEBREW_BIN.filter((d) => !opts.searchPath.includes(d)) : []),
    ],
    platform,
  );
}

export function archiveServerDefinition(opts: {
  binary: () => string | null;
  port: number;
  probe: (signal: AbortSignal) => Promise<boolean>;
  readinessTimeoutMs: number;
  /** DATA_DIR/run/archive-server.pid: how the next start knows a kiwix-serve left by a killed Hearth. */
  pidFile?: string;
}): SidecarDefinition<ArchiveServerConfig> {
  return {
    name: 'archive-server',
    launch(config) {
      const binary = opts.binary();
      if (!binary) return { error: 'The archive server (kiwix-serve) is not installed. An admin can install it from the Archives page.' };
      return { command: binary, args: ['-i', '127.0.0.1', '-p', String(opts.port), '-n', '-a', String(process.pid), ...config.files] };
    },
    probe: opts.probe,
    readinessTimeoutMs: opts.readinessTimeoutMs,
    pollIntervalMs: 50,
    healthIntervalMs: 10_000,
    hangAfterFailures: 3,
    stopGraceMs: 2000,
    // 139 = SIGSEGV (concurrent /suggest), 135 = SIGBUS (a file truncated under it)
    restartOn: [139, 135],
    maxRestarts: 5,
    // a kiwix-serve orphaned by kill -9 of Hearth lives on for about a second (-a checks once a
    // second) and holds the port: the start waits for it (or stops it, see pidFile) and tries again
    port: opts.port,
    pidFile: opts.pidFile,
    startRetries: 4,
  };
}
