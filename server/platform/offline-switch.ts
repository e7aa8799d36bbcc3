// Offline mode as one live household setting: on when Hearth was started with OFFLINE_MODE=1
// (`env`, which only a restart changes) or when an admin switched it on in Admin › Connectivity
// (`admin`, kept in app_settings so it survives a restart). The SSRF guard and every module read it
// at each call (`isOn()`), never a copy made at start; what runs on its own (a long poll, a queue)
// listens for changes with `onChange`.
import type { OfflineReason, OfflineSource } from './ssrf-address.js';

/** The app_settings key the admin's switch is kept under. */
export const OFFLINE_SETTING = 'connectivity.offline_mode';

/** The part of the household settings the switch keeps its state in (db/kv.ts AppSettingsStore). */
export interface OfflineSettings {
  get<T = unknown>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown): Promise<void>;
}

export class OfflineSwitch implements OfflineSource {
  private admin = false;
  private readonly listeners = new Set<(on: boolean) => void>();

  constructor(
    /** OFFLINE_MODE at start: forces offline mode on whatever the admin chose. */
    readonly forced: boolean,
    private readonly settings?: OfflineSettings,
  ) {}

  isOn(): boolean {
    return this.forced || this.admin;
  }

  /** Why it is on (the environment wins: the admin's switch is then locked); null while off. */
  get reason(): OfflineReason | null {
    if (this.forced) return 'env';
    return this.admin ? 'admin' : null;
  }

  /** The admin's own choice, whatever the environment says. */
  get adminChoice(): boolean {
    return this.admin;
  }

  /** Reads the admin's stored choice (app.ts, before any module starts). */
  async load(): Promise<void> {
    this.apply((await this.settings?.get<boolean>(OFFLINE_SETTING)) === true);
  }

  /** The admin's switch: stored first, then in effect at once. */
  async set(on: boolean): Promise<void> {
    await this.settings?.set(OFFLINE_SETTING, on);
    this.apply(on);
  }

  /** Called with the new state each time offline mode turns on or off; returns the unsubscribe. */
  onChange(listener: (on: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private apply(on: boolean): void {
    const was = this.isOn();
    this.admin = on;
    if (this.isOn() === was) return;
    for (const l of [...this.listeners]) {
      try {
        l(this.isOn());
      } catch {
        // a listener's failure is its own; the switch has changed for everyone else
      }
    }
  }
}

/** What a module reads of the switch at each call (its services take this, never a boolean). */
export type OfflineState = Pick<OfflineSwitch, 'isOn' | 'reason'>;

/** A scheduled task's run that does nothing while offline mode is on (checked at each run, not at start). */
export const whenOnline =
  (offline: { isOn(): boolean }, run: () => Promise<unknown>) =>
  async (): Promise<unknown> =>
    offline.isOn() ? undefined : run();
