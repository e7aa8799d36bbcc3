// The camera recorder's MQTT broker (reference/home-assistant.md §6), an admin-set home-network
// address, reached like every other outbound path: its host and port checked by the guard the
// caller hands in (createSmartHomeGuard: the one guard's rules plus exactly that origin), and the
// socket's own DNS lookup done by the guard's checked lookup, so the address connected to is the one
// checked (no second, unchecked resolution by the library). mqtt:// is TCP, mqtts:// TLS.
import net from 'node:net';
import tls from 'node:tls';
import type { IClientOptions, MqttClient } from 'mqtt';
import { lazyImport } from '../../platform/lazy.js';
import type { SsrfGuard } from '../../platform/ssrf.js';

const loadMqtt = lazyImport(() => import('mqtt'));

/** The broker's origin as the guard sees it (http://host:port), for createSmartHomeGuard and its check. */
export function brokerOrigin(mqttUrl: string): string {
  const u = new URL(mqttUrl);
  const port = Number(u.port) || (u.protocol === 'mqtts:' ? 8883 : 1883);
  return `http://${u.hostname}:${port}`;
}

/**
 * A client of the broker at `mqttUrl` whose every (re)connection is opened here through the guard;
 * throws BlockedUrlError (or OfflineModeError) when the guard refuses the address.
 */
export async function connectGuardedMqtt(mqttUrl: string, guard: Pick<SsrfGuard, 'checkUrl' | 'lookup'>, options: Pick<IClientOptions, 'reconnectPeriod' | 'connectTimeout'>): Promise<MqttClient> {
  const origin = guard.checkUrl(brokerOrigin(mqttUrl));
  const secure = new URL(mqttUrl).protocol === 'mqtts:';
  const host = origin.hostname.replace(/^\[|\]$/g, '');
  const port = Number(origin.port);
  const open = () =>
    secure ? tls.connect({ host, port, lookup: guard.lookup, ...(net.isIP(host) ? {} : { servername: host }) }) : net.createConnection({ host, port, lookup: guard.lookup });
  const { MqttClient: Client } = await loadMqtt();
  return new Client(open, { ...options, protocolVersion: 4, clean: true });
}
