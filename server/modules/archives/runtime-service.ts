// POST /api/admin/archives/install-kiwix: installs the archive server (the Kiwix tools bundle for
// this OS, runtime.ts) under DATA_DIR while the admin watches, then has the archives service serve
// the installed archives with it. One install at a time.
import { assertAdmin, type Actor } from '../../actor.js';
import { ConflictError, ServiceUnavailableError, UnprocessableError } from '../../errors.js';
import type { Logger } from '../../platform/logger.js';
import type { ArchiveServerConfig } from '../../platform/sidecars/archive-server.js';
import type { ProcessSupervisor } from '../../platform/sidecars/supervisor.js';
import type { OfflineState } from '../../platform/offline-switch.js';
import type { SsrfGuard } from '../../platform/ssrf.js';
import { downloadFailure, progressEvents, type EventSink } from './download-events.js';
import { installKiwixTools, kiwixToolsSource } from './runtime.js';
import type { RuntimeInstallEvents } from './schema.js';
import type { ArchivesService } from './service.js';

export interface ArchiveRuntimeDeps {
  /** Serves the installed archives once the archive server is in place. */
  archives: Pick<ArchivesService, 'serve' | 'statusView'>;
  supervisor: ProcessSupervisor<ArchiveServerConfig>;
  isInstalled: () => boolean;
  guard: SsrfGuard;
  dataDir: string;
  /** Offline mode, read at each call (platform/offline-switch.ts). */
  offline: OfflineState;
  logger: Logger;
  stallTimeoutMs?: number;
  /** KIWIX_TOOLS_URL: where install-kiwix downloads the tools bundle (default: Kiwix's bundle for this OS). */
  kiwixToolsUrl?: string;
  /** This machine (tests may pretend to be another). */
  platform?: NodeJS.Platform;
  arch?: string;
}

export class ArchiveRuntimeService {
  private installingRuntime = false;

  constructor(private readonly deps: ArchiveRuntimeDeps) {}

  private runtimeSource() {
    return kiwixToolsSource(this.deps.platform ?? process.platform, this.deps.arch ?? process.arch, this.deps.kiwixToolsUrl);
  }

  /** Checks an install of the Kiwix tools can start; throws the HTTP error before any stream is opened. */
  prepareInstallRuntime(actor: Actor) {
    assertAdmin(actor);
    if (this.deps.offline.isOn()) throw new ServiceUnavailableError('offline_mode', 'Hearth is in offline mode, so it will not download the archive server.');
    if (this.installingRuntime) throw new ConflictError('install_in_progress', 'The archive server is already being installed.');
    const source = this.runtimeSource();
    if (source.kind === 'package-manager' && !this.deps.isInstalled()) {
      throw new UnprocessableError('needs_package_manager', source.message, { command: source.command });
    }
    return source;
  }

  /**
   * Installs the archive server (the Kiwix tools bundle for this OS) under DATA_DIR, then serves
   * the installed archives with it. Where the OS has no bundle and kiwix-serve was installed with
   * a package manager, it only starts serving.
   */
  async installRuntime(actor: Actor, out: EventSink<RuntimeInstallEvents>): Promise<void> {
    const source = this.prepareInstallRuntime(actor);
    this.installingRuntime = true;
    try {
      let binary: string | null = null;
      if (source.kind === 'bundle') {
        out.send('status', { state: 'downloading', url: source.url });
        const result = await installKiwixTools({
          guard: this.deps.guard,
          url: source.url,
          dataDir: this.deps.dataDir,
          platform: this.deps.platform ?? process.platform,
          signal: out.signal,
          stallTimeoutMs: this.deps.stallTimeoutMs ?? 60_000,
          onProgress: progressEvents(out),
          onStep: (state) => out.send('status', { state }),
          release: () => this.deps.supervisor.stop(),
        });
        binary = result.binary;
        this.deps.logger.info({ binary, bytes: result.bytes }, 'archive server installed');
      }
      if (!this.deps.isInstalled()) {
        throw new UnprocessableError(
          'runtime_not_found',
          binary
            ? `kiwix-serve was installed at ${binary}, but Hearth is set to use another one (KIWIX_SERVE_PATH), which is missing.`
            : 'kiwix-serve was not found after the install.',
        );
      }
      out.send('status', { state: 'starting' });
      await this.deps.archives.serve();
      const st = await this.deps.archives.statusView();
      out.send('done', { installed: true, kiwixState: st.kiwixState, kiwixError: st.kiwixError, installedCount: st.installedCount });
    } catch (err) {
      // a client that went away keeps the partial bundle for a later resume; nobody is listening
      if (!out.signal.aborted) throw downloadFailure(err);
    } finally {
      this.installingRuntime = false;
    }
  }
}
