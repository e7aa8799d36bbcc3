// `weather` and `news`, the chat tools over Today's cached copies: the forecast (now, the next hours,
// the week) and the newest headlines of the feeds the member follows. They read what Hearth already
// fetched (a stale copy says so); they never make a request of their own beyond the fetcher's usual
// refresh. Listed in this module's manifest; their Extensions (same ids) are in extensions.ts.
import { z } from 'zod';
import type { ChatTool, ChatToolResult } from '../chat/public.js';
import type { NewsService } from './news-service.js';
import type { WeatherService } from './weather-service.js';

const TIMEOUT_MS = 4000;
const hour = (t: string) => t.slice(11, 16);
const staleNote = (stale: boolean, fetchedAt: string) => (stale ? ` (not up to date: last fetched ${fetchedAt})` : '');

export const WeatherArgs = z.object({});
export const NewsArgs = z.object({ limit: z.number().int().min(1).max(15).optional().describe('How many headlines (1-15, default 8).') });

export function createWeatherTool(deps: { weather: Pick<WeatherService, 'get'> }): ChatTool<typeof WeatherArgs> {
  return {
    id: 'weather',
    description: 'The weather at the household’s home: current conditions, the next 24 hours and the next 7 days. Use it for any question about the weather, rain, temperature or wind.',
    args: WeatherArgs,
    timeoutMs: TIMEOUT_MS,
    async run(_args, ctx): Promise<ChatToolResult> {
      const w = await deps.weather.get(ctx.actor);
      if (!w.configured) throw new Error('The household’s place for the weather is not set yet; an admin sets it in Admin, Today settings.');
      const u = w.units.temperature;
      const lines = [
        `Weather in ${w.location.name}${staleNote(w.stale, w.fetchedAt)}:`,
        `Now (${w.current.time}): ${w.current.temperature}${u}, ${w.current.description}, feels like ${w.current.apparentTemperature}${u}, wind ${w.current.windSpeed} ${w.units.windSpeed}, humidity ${w.current.humidity}%.`,
        `Next hours: ${w.hourly.filter((_, i) => i % 3 === 0).map((h) => `${hour(h.time)} ${h.temperature}${u}${h.precipitationProbability ? ` ${h.precipitationProbability}% rain` : ''}`).join('; ')}.`,
        `Next days: ${w.daily.map((d) => `${d.date} ${d.description}, ${d.min}-${d.max}${u}${d.precipitationProbability ? `, ${d.precipitationProbability}% rain` : ''}`).join('; ')}.`,
        w.credit,
      ];
      return { content: lines.join('\n'), summary: `Looked up the weather in ${w.location.name}`, sources: [] };
    },
  };
}

export function createNewsTool(deps: { news: Pick<NewsService, 'list'> }): ChatTool<typeof NewsArgs> {
  return {
    id: 'news',
    description: 'The newest headlines of the news feeds the member follows, with their links and a short summary each. Use it when asked about the news or headlines.',
    args: NewsArgs,
    timeoutMs: TIMEOUT_MS,
    async run(args, ctx): Promise<ChatToolResult> {
      const n = await deps.news.list(ctx.actor, { limit: args.limit ?? 8 });
      if (n.items.length === 0) return { content: 'There are no headlines: the household follows no news feeds yet, or they have nothing new.', summary: 'Looked for headlines: none', sources: [] };
      const lines = n.items.map((i, k) => `${k + 1}. ${i.title} (${i.feedTitle}${i.publishedAt ? `, ${i.publishedAt}` : ''})${i.url ? ` ${i.url}` : ''}${i.summary ? `\n   ${i.summary.slice(0, 200)}` : ''}`);
      return { content: `Headlines${n.stale ? ' (some feeds are not up to date)' : ''}:\n${lines.join('\n')}`, summary: `Read ${n.items.length} headlines`, sources: [] };
    },
  };
}
