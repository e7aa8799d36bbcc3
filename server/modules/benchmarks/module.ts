// The benchmarks module (issue 39): Admin › Benchmarks measures this computer for the household's
// choices (chat speed per installed chat model through the model runtime, seconds per image step on
// a running image engine, the data folder's disk speed) and keeps the last results; the Features
// page's fit hints use them (features port `measuredSpeed`).
import { ReplayChannel } from '../../http/sse.js';
import { defineModule, type Platform } from '../module.js';
import type { BenchmarksPorts } from './ports.js';
import type { BenchmarkEvent } from './schema.js';
import { createBenchmarkRoutes } from './routes.js';
import { BenchmarksService } from './service.js';

export function createBenchmarksModule(p: Platform, ports: BenchmarksPorts) {
  const benchmarks = new BenchmarksService({
    runtime: p.modelRuntime,
    settings: p.settings,
    image: ports.image,
    disk: p.diskSpace,
    dataDir: p.config.dataDir,
    clock: p.clock,
    logger: p.logger.child('benchmarks'),
    diskBytes: p.tuning.benchmarkDiskBytes,
    newChannel: () => new ReplayChannel<BenchmarkEvent>(),
  });
  return defineModule({
    name: 'benchmarks',
    routes: [{ prefix: '/admin/benchmarks', routes: createBenchmarkRoutes(benchmarks, p.sse) }],
    services: { benchmarks },
    close: () => benchmarks.close(),
  });
}
