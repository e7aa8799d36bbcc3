// Maintenance drafts (GET /api/home/devices/:id/maintenance): the intervals a manual states
// ("replace the filter every 6 months", "descale every 3 months", "clean the lint filter after every
// use", "once a year") become suggestions with the interval in days and when the task is next due:
// from the newest service-log entry about the same thing, or today when it was never logged. The
// member confirms one by POSTing it as a service entry (POST /devices/:id/service); nothing is
// written here.
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { UserActor } from '../../actor.js';
import { NotFoundError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import { addDays, todayOf } from './dates.js';
import { DEVICE_GONE } from './identify-service.js';
import type { MaintenanceResponse as Maintenance, MaintenanceSuggestion } from './schema.js';

type MaintenanceResponse = z.infer<typeof Maintenance>;
import type { HomeInventoryStore, ServiceRecord } from './store.js';

const MAX_SUGGESTIONS = 20;
const NUMBERS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, eighteen: 18, twenty: 20, thirty: 30 };
const UNIT_DAYS: Record<string, number> = { day: 1, week: 7, month: 30, year: 365 };
const TASKS = /\b(replac|clean|descal|decalcif|chang|check|inspect|servic|empt|lubricat|oil|wash|rins|test|flush|drain|vacuum|defrost|tighten|remov)\w*/i;

interface Interval {
  interval: string;
  intervalDays: number | null;
  at: number;
}

/** The interval a sentence states, or null. */
export function intervalIn(sentence: string): Interval | null {
  const n = `(\\d{1,3}|${Object.keys(NUMBERS).join('|')})`;
  const every = new RegExp(`\\bevery\\s+${n}\\s+(day|week|month|year)s?\\b`, 'i').exec(sentence);
  if (every) {
    const count = /^\d+$/.test(every[1]!) ? Number(every[1]) : NUMBERS[every[1]!.toLowerCase()]!;
    if (count > 0) return { interval: every[0].toLowerCase(), intervalDays: count * UNIT_DAYS[every[2]!.toLowerCase()]!, at: every.index };
  }
  const single = /\b(?:every|once a|once per|once every)\s+(day|week|month|year)\b/i.exec(sentence);
  if (single) return { interval: single[0].toLowerCase(), intervalDays: UNIT_DAYS[single[1]!.toLowerCase()]!, at: single.index };
  const twice = /\btwice a (year|month)\b/i.exec(sentence);
  if (twice) return { interval: twice[0].toLowerCase(), intervalDays: Math.round(UNIT_DAYS[twice[1]!.toLowerCase()]! / 2), at: twice.index };
  const adverb = /\b(daily|weekly|monthly|annually|yearly)\b/i.exec(sentence);
  if (adverb) {
    const word = adverb[1]!.toLowerCase();
    const days = { daily: 1, weekly: 7, monthly: 30, annually: 365, yearly: 365 }[word]!;
    return { interval: word, intervalDays: days, at: adverb.index };
  }
  const use = /\b(after (?:every|each) use|before (?:every|each) use)\b/i.exec(sentence);
  if (use) return { interval: use[1]!.toLowerCase(), intervalDays: null, at: use.index };
  return null;
}

/** The words that name what a task is about ("replace the water filter" → filter, water, replace). */
function keywords(description: string): string[] {
  return (description.toLowerCase().match(/[\p{L}]+/gu) ?? []).filter((w) => w.length > 3 && !['every', 'after', 'before', 'with', 'your', 'this', 'that', 'them', 'months', 'weeks', 'years'].includes(w));
}

/** Suggestions from the manual text, dated from the service log (newest first) and today. */
export function maintenanceFrom(manualText: string, service: ServiceRecord[], today: string): MaintenanceSuggestion[] {
  const out: MaintenanceSuggestion[] = [];
  const seen = new Set<string>();
  // paragraphs (a heading is its own), then sentences
  const sentences = manualText.split(/\n[ \t]*\n+/).flatMap((p) => p.replace(/\s+/g, ' ').split(/(?<=[.!?;])\s+|\s+•\s+/));
  for (const raw of sentences) {
    const sentence = raw.trim();
    if (sentence.length < 8 || sentence.length > 400) continue;
    const task = TASKS.exec(sentence);
    const found = intervalIn(sentence);
    if (!task || !found) continue;
    // "Replace the water filter every 6 months" → "Replace the water filter"
    const phrase = task.index < found.at ? sentence.slice(0, found.at) : sentence;
    const words = phrase.replace(/[,:;.]+$/, '').replace(/\s+(at least|about|approximately|roughly)\s*$/i, '').trim();
    const description = (words.charAt(0).toUpperCase() + words.slice(1)).replace(/[.!?;]+$/, '').slice(0, 160);
    const key = `${description.toLowerCase()}|${found.intervalDays}`;
    if (!description || seen.has(key)) continue;
    seen.add(key);
    const keys = keywords(description);
    const last = service.find((s) => keys.some((k) => s.description.toLowerCase().includes(k)));
    const dueDate = found.intervalDays === null ? null : last ? addDays(last.date, found.intervalDays) : today;
    out.push({
      id: createHash('sha1').update(key).digest('hex').slice(0, 12),
      description,
      interval: found.interval,
      intervalDays: found.intervalDays,
      quote: sentence,
      dueDate,
    });
    if (out.length === MAX_SUGGESTIONS) break;
  }
  return out;
}

export class HomeMaintenanceService {
  constructor(private readonly deps: { store: Pick<HomeInventoryStore, 'getDevice' | 'listService'>; clock: Clock }) {}

  async suggest(_actor: UserActor, deviceId: string): Promise<MaintenanceResponse> {
    const device = await this.deps.store.getDevice(deviceId);
    if (!device) throw new NotFoundError(DEVICE_GONE);
    if (!device.manualText) return { suggestions: [] };
    const service = await this.deps.store.listService(deviceId);
    return { suggestions: maintenanceFrom(device.manualText, service, todayOf(this.deps.clock)) };
  }
}
