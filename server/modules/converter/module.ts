// The file converter (issue 38): a member sends a file and picks a preset (photo → JPEG, video →
// phone MP4, audio → MP3, document → PDF, PDF → smaller PDF, Markdown → DOCX, picture → WebP); the
// preset's program (ffmpeg, heif-convert, LibreOffice, Ghostscript, pandoc, found on the search
// path; sharp in process) runs as a fenced child process, one job per CPU core, and the result is the
// member's own for 24 hours. Presets whose program is missing are not offered.
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { findConverterPrograms, ToolFence } from '../../adapters/converter/programs.js';
import { ReplayChannel } from '../../http/sse.js';
import { defineModule, type Platform } from '../module.js';
import { createConverterRoutes } from './routes.js';
import { MAX_CONVERT_BYTES } from './schema.js';
import { ConverterService } from './service.js';
import { ConverterStore } from './store.js';

export function createConverterModule(p: Platform) {
  const programs = findConverterPrograms(p.config.searchPath);
  const converter = new ConverterService({
    store: new ConverterStore(p.db),
    programs,
    fence: new ToolFence(programs),
    dir: path.join(p.config.dataDir, 'converter'),
    disk: p.diskSpace,
    clock: p.clock,
    logger: p.logger.child('converter'),
    maxUploadBytes: p.tuning.converterMaxUploadBytes ?? MAX_CONVERT_BYTES,
    slots: p.tuning.converterJobs ?? availableParallelism(),
    channel: () => new ReplayChannel(),
  });
  return defineModule({
    name: 'converter',
    storageAreas: [{ key: 'converter', label: 'Converted files', folders: ['converter'] }],
    routes: [{ prefix: '/converter', routes: createConverterRoutes(converter, p.sse) }],
    services: { converter },
    tasks: [{ name: 'converter.sweep', everyMs: 30 * 60_000, run: () => converter.sweep() }],
    listeners: [{ event: 'user.deleted', run: (e) => converter.onUserDeleted(e.userId) }],
    start: () => converter.start(),
    close: () => converter.close(),
  });
}
