// Keeps what PIN sign-in must remember across a restart (issue 29 item 5) in SQLite: the PIN
// throttle's strikes and paces (it is the throttle's journal) and the browsers members signed in
// on. The throttle and the auth service read from memory; this writes each change behind them, in
// the order they happened, and `settled()` lets a sign-in answer only once its count is on disk.
import type { Logger } from '../../platform/logger.js';
import type { PaceRecord, PinStateStore, StrikeRecord, TrustedDeviceRecord } from './store.js';
import type { PinThrottleJournal } from './throttle.js';

export class PinStateJournal implements PinThrottleJournal {
  private writes: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: PinStateStore,
    private readonly logger: Logger,
  ) {}

  /** Runs one write after the ones before it; a failed write is logged and does not stop the rest. */
  private enqueue(what: string, write: () => Promise<void>): void {
    this.writes = this.writes.then(write).catch((err: unknown) => this.logger.error({ err, what }, 'could not save the PIN sign-in state'));
  }

  /** Resolves once every change handed in so far is written. */
  settled(): Promise<void> {
    return this.writes;
  }

  putStrike(strike: StrikeRecord): void {
    this.enqueue('strike', () => this.store.putStrike(strike));
  }

  dropStrikes(keys: string[]): void {
    this.enqueue('strikes', () => this.store.deleteStrikes(keys));
  }

  putPace(pace: PaceRecord): void {
    this.enqueue('pace', () => this.store.putPace(pace));
  }

  dropPaces(keys: string[]): void {
    this.enqueue('paces', () => this.store.deletePaces(keys));
  }

  trustDevice(deviceHash: string, userId: string, nowIso: string): void {
    this.enqueue('trusted device', () => this.store.putTrustedDevice(deviceHash, userId, nowIso));
  }

  forgetDevice(deviceHash: string): void {
    this.enqueue('trusted device', () => this.store.deleteTrustedDevice(deviceHash));
  }

  /** What was kept: the throttle's entries and the trusted devices used since `sinceIso` (the newest `limit`). */
  async load(sinceIso: string, limit: number): Promise<{ strikes: StrikeRecord[]; paces: PaceRecord[]; devices: TrustedDeviceRecord[] }> {
    await this.store.deleteTrustedDevicesUsedBefore(sinceIso);
    const [strikes, paces, devices] = [await this.store.strikes(), await this.store.paces(), await this.store.trustedDevices(sinceIso, limit)];
    return { strikes, paces, devices };
  }
}
