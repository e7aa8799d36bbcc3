// The web lookup's search engine (a SearXNG server): its address is a household setting an admin
// sets in the web app (app setting web_search_url), or WEB_SEARCH_URL where Hearth was started,
// which then wins and cannot be changed from the app. An address set in the app goes through the
// household's SSRF guard like every other fetch: a public address only (its name is resolved when
// it is saved, and again at every connection); the environment's is trusted as the one who started
// Hearth set it (it may be on the home network). The client is made again when the address changes.
import { promisify } from 'node:util';
import { isAdmin, type UserActor } from '../../actor.js';
import type { WebSearchClient } from '../../adapters/web-search/searxng.js';
import { BadRequestError, ConflictError, ForbiddenError } from '../../errors.js';
import { BlockedUrlError, OfflineModeError } from '../../platform/ssrf-address.js';
import type { SsrfGuard } from '../../platform/ssrf.js';
import type { WebSearchView } from './schema.js';

export const WEB_SEARCH_SETTING = 'web_search_url';

export interface WebSearchSettingDeps {
  settings: { get<T>(key: string): Promise<T | undefined>; set(key: string, value: unknown): Promise<void>; delete(key: string): Promise<void> };
  /** The household's guard: what an address set in the app must pass. */
  guard: SsrfGuard;
  /** WEB_SEARCH_URL's client, when it is set (it wins over the setting), and the address as it was given. */
  fromEnvironment: WebSearchClient | null;
  environmentUrl?: string | null;
  /** A client for an address set in the app, through `guard`. */
  clientFor(url: string): WebSearchClient;
}

const notAdmin = () => new ForbiddenError('Only an admin can change the web search address.');

export class WebSearchSetting {
  private made: { url: string; client: WebSearchClient } | null = null;

  constructor(private readonly deps: WebSearchSettingDeps) {}

  /** The client to search with now, or null when no address is set. */
  async current(): Promise<WebSearchClient | null> {
    if (this.deps.fromEnvironment) return this.deps.fromEnvironment;
    const url = await this.deps.settings.get<string>(WEB_SEARCH_SETTING);
    if (typeof url !== 'string' || !url) return null;
    if (this.made?.url !== url) {
      const old = this.made;
      this.made = { url, client: this.deps.clientFor(url) };
      void old?.client.close().catch(() => undefined);
    }
    return this.made.client;
  }

  /** Whether a search is set up (everyone may know); the address and whether it can be changed, for admins. */
  async view(actor: UserActor): Promise<WebSearchView> {
    const env = this.deps.fromEnvironment;
    const stored = env ? null : await this.deps.settings.get<string>(WEB_SEARCH_SETTING);
    const url = env ? (this.deps.environmentUrl ?? env.baseUrl) : typeof stored === 'string' && stored ? stored : null;
    const admin = isAdmin(actor);
    return { configured: url !== null, url: admin ? url : null, setWhereHearthStarted: env !== null, canChange: admin && env === null };
  }

  /** Sets (or, with null, removes) the address; 400 with a sentence for one Hearth may not use. */
  async set(actor: UserActor, raw: string | null): Promise<WebSearchView> {
    if (!isAdmin(actor)) throw notAdmin();
    if (this.deps.fromEnvironment) throw new ConflictError('set_at_start', 'The web search address was set where Hearth was started, so it cannot be changed here. Whoever started Hearth can change it there.');
    if (raw === null || raw.trim() === '') {
      await this.deps.settings.delete(WEB_SEARCH_SETTING);
      return this.view(actor);
    }
    const url = await this.check(raw.trim());
    await this.deps.settings.set(WEB_SEARCH_SETTING, url);
    return this.view(actor);
  }

  /** The address normalised, checked by the guard: its form, then where its name leads. */
  private async check(raw: string): Promise<string> {
    let parsed: URL;
    try {
      parsed = this.deps.guard.checkUrl(raw);
    } catch (err) {
      if (err instanceof OfflineModeError) throw new BadRequestError(`Hearth does not search the web now. ${err.message}`, undefined, 'offline');
      if (err instanceof BlockedUrlError) throw refused();
      throw new BadRequestError('That is not a web address. Write it like https://search.example.org.', undefined, 'invalid_url');
    }
    if (!/^\d+\.\d+\.\d+\.\d+$|^\[/.test(parsed.hostname) && !this.deps.guard.allowOrigins.includes(parsed.origin)) {
      try {
        await promisify(this.deps.guard.lookup)(parsed.hostname.replace(/^\[|\]$/g, ''), { all: true });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ESSRFBLOCKED') throw refused();
        throw new BadRequestError(`Hearth could not find ${parsed.hostname} on the internet. Check the address and save it again.`, undefined, 'not_found');
      }
    }
    return parsed.href.replace(/\/$/, '');
  }

  /** Closes the clients' connections (the environment's and the one made for the setting). */
  async close(): Promise<void> {
    await Promise.all([this.deps.fromEnvironment?.close(), this.made?.client.close()]);
  }
}

function refused(): BadRequestError {
  return new BadRequestError(
    'Hearth only searches through a public web address, not one on this computer or the home network. Use the search server’s public address, or ask whoever starts Hearth to set it there.',
    undefined,
    'blocked_url',
  );
}
