// home_inventory, the chat tool over the household's inventory (every member sees every device):
// `query` lists up to TOOL_MAX_RESULTS devices with their warranty state; `deviceId` gives one
// device in full (specs, links, file names, service history) with an extract of its manual chosen
// by `question` (manual-text.ts forTool). Each result links to the device page, /inventory/:id.
// Listed in this module's manifest (module.ts), gathered by the chat module; its Extension (same id) is in extensions.ts.
import { z } from 'zod';
import type { ChatTool, ChatToolResult } from '../chat/public.js';
import type { Source } from '../chat/schema.js';
import { clip, keyWords } from '../search/public.js';
import type { Clock } from '../../platform/clock.js';
import { todayOf, warrantyStatus } from './dates.js';
import { forTool } from './manual-text.js';
import { DEFAULT_WARRANTY_DAYS, TOOL_MAX_RESULTS } from './schema.js';
import type { DeviceRecord, HomeInventoryStore } from './store.js';

export const INVENTORY_TOOL_TIMEOUT_MS = 2_000;
const SNIPPET_CHARS = 240;
const MAX_SERVICE_LINES = 10;

export const HomeInventoryArgs = z.object({
  query: z.string().trim().max(200).optional().describe('Words to find devices by name, brand, model, category or location, e.g. "dishwasher" or "kitchen". Leave out to list devices.'),
  deviceId: z.string().trim().min(1).max(100).optional().describe('One device\'s id (from an earlier result) for its full details, service history and manual.'),
  question: z.string().trim().max(1000).optional().describe('With deviceId: what the person wants to know, to pick the matching parts of the manual.'),
});

export const deviceUrl = (id: string) => `/inventory/${id}`;

type Store = Pick<HomeInventoryStore, 'listDevices' | 'getDevice' | 'listLinks' | 'listFiles' | 'listService'>;

export interface HomeInventoryToolDeps {
  store: Store;
  clock: Clock;
}

const WARRANTY_WORDS = { none: 'no warranty date', active: 'under warranty', expiring: 'warranty ending soon', expired: 'warranty expired' } as const;

function describeDevice(d: DeviceRecord, today: string): string {
  const status = warrantyStatus(d.warrantyExpires, today, DEFAULT_WARRANTY_DAYS);
  const make = [d.brand, d.model].filter(Boolean).join(' ');
  const warranty = d.warrantyExpires ? `${WARRANTY_WORDS[status]} (until ${d.warrantyExpires})` : WARRANTY_WORDS.none;
  return `${d.name}${make ? ` — ${make}` : ''} [${d.category}${d.location ? `, ${d.location}` : ''}] ${warranty}; id ${d.id}; page ${deviceUrl(d.id)}`;
}

const source = (d: DeviceRecord, snippet: string | null): Source => ({ type: 'inventory', title: d.name, url: deviceUrl(d.id), snippet });

async function list(deps: HomeInventoryToolDeps, query: string | undefined): Promise<ChatToolResult> {
  let found = await deps.store.listDevices({ q: query, limit: TOOL_MAX_RESULTS });
  // all the words found nothing: devices matching any of them
  if (found.length === 0 && query && /\s/.test(query.trim())) {
    const seen = new Map<string, DeviceRecord>();
    for (const w of keyWords(query)) for (const d of await deps.store.listDevices({ q: w, limit: TOOL_MAX_RESULTS })) seen.set(d.id, d);
    found = [...seen.values()].slice(0, TOOL_MAX_RESULTS);
  }
  const today = todayOf(deps.clock);
  const what = query ? `"${query}"` : 'everything';
  if (found.length === 0) return { content: `No device in the household inventory matches ${what}.`, summary: `Looked up ${what} in the inventory: nothing found`, sources: [] };
  const lines = found.map((d, i) => `${i + 1}. ${describeDevice(d, today)}`);
  return {
    content: `Devices in the household inventory for ${what} (use deviceId for details and the manual):\n${lines.join('\n')}`,
    summary: `Looked up ${what} in the inventory: ${found.length} ${found.length === 1 ? 'device' : 'devices'}`,
    sources: found.map((d) => source(d, clip([d.brand, d.model, d.location].filter(Boolean).join(' · '), SNIPPET_CHARS))),
  };
}

async function detail(deps: HomeInventoryToolDeps, id: string, question: string | undefined): Promise<ChatToolResult> {
  const d = await deps.store.getDevice(id);
  if (!d) return { content: `There is no device with id ${id} in the inventory. Search with query first.`, summary: 'Looked for a device in the inventory: not found', sources: [] };
  const [links, files, service] = await Promise.all([deps.store.listLinks(id), deps.store.listFiles(id), deps.store.listService(id)]);
  const today = todayOf(deps.clock);
  const parts = [describeDevice(d, today)];
  const facts = (
    [
      ['Serial number', d.serialNumber],
      ['Manufactured', d.manufacturedDate],
      ['Made in', d.countryOfOrigin],
      ['Purchased', d.purchaseDate && `${d.purchaseDate}${d.purchaseStore ? ` at ${d.purchaseStore}` : ''}`],
      ['Warranty notes', d.warrantyNotes],
      ['Support', [d.supportPhone, d.supportUrl].filter(Boolean).join(', ')],
    ] as Array<[string, string | null]>
  ).filter(([, v]) => v);
  parts.push(...facts.map(([k, v]) => `${k}: ${v}`));
  const specs = Object.entries(d.specs);
  if (specs.length) parts.push(`Specifications:\n${specs.map(([k, v]) => `- ${k}: ${v}`).join('\n')}`);
  if (links.length) parts.push(`Links:\n${links.map((l) => `- ${l.label} (${l.category}): ${l.url}`).join('\n')}`);
  if (files.length) parts.push(`Files: ${files.map((f) => f.label).join(', ')}`);
  parts.push(
    service.length
      ? `Service history (newest first):\n${service
          .slice(0, MAX_SERVICE_LINES)
          .map((s) => `- ${s.date} ${s.type}: ${s.description}`)
          .join('\n')}`
      : 'Service history: none recorded.',
  );
  const manual = d.manualText ? forTool(d.manualText, question) : null;
  if (manual?.text) parts.push(`Manual extract${question && manual.matched ? ` for "${question}"` : ' (its start)'}:\n${manual.text}`);
  else parts.push('No manual text is stored for this device.');
  return {
    content: parts.join('\n'),
    summary: `Looked up ${d.name} in the inventory${manual?.matched ? ' and its manual' : ''}`,
    sources: [source(d, manual?.matched ? clip(manual.text, SNIPPET_CHARS) : clip([d.brand, d.model].filter(Boolean).join(' '), SNIPPET_CHARS))],
  };
}

export function createHomeInventoryTool(deps: HomeInventoryToolDeps): ChatTool<typeof HomeInventoryArgs> {
  return {
    id: 'home_inventory',
    description:
      "Look up the household's devices and appliances: find them by name, brand, model, category or location (query) with their warranty state, or get one device's details, service history and the part of its manual that answers a question (deviceId with question). Use it for questions about things in the house, warranties, maintenance and how to use or fix a device.",
    args: HomeInventoryArgs,
    timeoutMs: INVENTORY_TOOL_TIMEOUT_MS,
    run: (args) => (args.deviceId ? detail(deps, args.deviceId, args.question) : list(deps, args.query || undefined)),
    async ground(question) {
      const words = keyWords(question);
      if (words.length === 0) return { content: '', summary: 'Nothing to look up in the inventory', sources: [] };
      const seen = new Map<string, DeviceRecord>();
      for (const w of words) for (const d of await deps.store.listDevices({ q: w, limit: TOOL_MAX_RESULTS })) seen.set(d.id, d);
      const found = [...seen.values()];
      // one device named: its details and the manual's answer
      if (found.length === 1) return detail(deps, found[0]!.id, question);
      if (found.length === 0) return { content: '', summary: 'Looked up the inventory: nothing found', sources: [] };
      const today = todayOf(deps.clock);
      const shown = found.slice(0, TOOL_MAX_RESULTS);
      return {
        content: `Devices in the household inventory that may be meant:\n${shown.map((d, i) => `${i + 1}. ${describeDevice(d, today)}`).join('\n')}`,
        summary: `Looked up the inventory: ${shown.length} devices`,
        sources: shown.map((d) => source(d, null)),
      };
    },
  };
}
