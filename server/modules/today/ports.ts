// What the Today module asks of other modules (container.ts hands these in).
import type { LocaleService } from '../locale/service.js';
import type { AvailabilityCheck } from '../tools/schema.js';

/** The household's installed Wikipedia archive (catalog id `wikipedia`), read when Hearth is offline. */
export interface LocalWikipedia {
  /** The article of this exact title ("May_20"), or null: no such archive installed, not served yet, or no such article. */
  article(title: string): Promise<{ path: string; html: string } | null>;
  /** The web app's archive viewer at one path of that archive. */
  viewerUrl(path: string): string;
}

export interface TodayPorts {
  /** Whether chat can answer (the model runtime with the chosen chat model): the chat tools need it. */
  chatReadiness: AvailabilityCheck;
  /** The household's chosen chat model (null: none), which writes the briefing's summary. */
  chatModel(): Promise<string | null>;
  /** On this day's offline source (the archives module). */
  wikipedia: LocalWikipedia;
  /** The household's language and region (the locale module): its time zone, the units each member reads in. */
  locale: Pick<LocaleService, 'timeZone' | 'unitsFor' | 'household' | 'set' | 'effective'>;
}
