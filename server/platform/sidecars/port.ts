// Whether a sidecar's 127.0.0.1 port can be bound, waited for before each start.
import net from 'node:net';
import { sleep } from '../sleep.js';

/** Waits until 127.0.0.1:port can be bound (nothing listens there); false after `ms`. */
export async function waitForFreePort(port: number, ms: number, signal?: AbortSignal): Promise<boolean> {
  const end = Date.now() + ms;
  for (;;) {
    if (await isPortFree(port)) return true;
    if (Date.now() >= end || signal?.aborted) return false;
    await sleep(100, signal);
  }
}

function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ port, host: '127.0.0.1', exclusive: true }, () => probe.close(() => resolve(true)));
  });
}
