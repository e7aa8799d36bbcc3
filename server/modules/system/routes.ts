import type { Response } from 'express';
import { defineRoutes, events } from '../../http/routes.js';
import type { SseRegistry } from '../../http/sse.js';
import { houseAddresses, type NetworkInterfaces } from '../../platform/lan.js';
import type { BootService } from './boot-service.js';
import { BootEvents, HouseAddressesResponse, ReadyResponse } from './schema.js';

export interface SystemNetwork {
  /** The HOST Hearth listens on. */
  host: string;
  /** The machine's network interfaces (os.networkInterfaces; tests pass their own). */
  interfaces: () => NetworkInterfaces;
}

export function createSystemRoutes(boot: BootService, sse: SseRegistry, network: SystemNetwork) {
  return defineRoutes((r) => {
    r.get('/ready', { access: 'none', response: ReadyResponse }, (_req, res: Response) => {
      res.status(boot.isDone ? 200 : 503);
      return { done: boot.isDone };
    });

    // Not secret on the home network, but only for the signed-in: the end of setup and the
    // "open Hearth on your phone" hints show it. The port is the one this request came in on.
    r.get('/addresses', { access: 'user', response: HouseAddressesResponse }, (req) => ({
      ...houseAddresses(network.host, req.socket.localPort ?? 0, network.interfaces()),
      host: network.host,
    }));

    r.get('/boot', { access: 'none', response: events(BootEvents) }, (req, res) => sse.run(req, res, (open) => boot.channel.pipeTo(open())));
  });
}
