// `home_control`, the chat tool over the household's Home Assistant (issue 37): it reads the states
// of the devices the member may see (their rights, as on the Smart home page) and runs an action on
// one of them within the same rules; a guarded device (locks, alarms, garage doors, the admin's
// picks) is never acted on from chat: the tool answers with a proposed action that the chat shows as
// a button under the answer; only the member pressing it asks for the action (POST
// /api/home-assistant/entities/:id/action with confirm: true, their rights checked again). Actions are written to the
// activity log with the source `chat`.
import { z } from 'zod';
import type { ChatTool, ChatToolResult } from '../chat/public.js';
import type { ControlService } from './control-service.js';
import type { EntityView } from './schema.js';

const TIMEOUT_MS = 12_000;

export const HomeControlArgs = z.object({
  entity: z.string().max(200).optional().describe('A device: its id (light.kitchen) or its name (Kitchen light). Leave out to list every device the member may see.'),
  service: z
    .string()
    .regex(/^[a-z_]{1,64}$/)
    .optional()
    .describe('To act: the service, e.g. turn_on, turn_off, toggle, set_temperature, open_cover, close_cover, media_play_pause. Leave out to only read.'),
  brightness_pct: z.number().min(1).max(100).optional().describe('For a light: brightness 1-100 with turn_on.'),
  temperature: z.number().min(5).max(35).optional().describe('For climate: target temperature with set_temperature.'),
});

/** The proposal button's first word(s) for a service. */
const ACTION_LABELS: Record<string, string> = { unlock: 'Unlock', lock: 'Lock', open: 'Open', open_cover: 'Open', close_cover: 'Close', alarm_disarm: 'Disarm', alarm_arm_home: 'Arm (at home)', alarm_arm_away: 'Arm (away)', turn_on: 'Turn on', turn_off: 'Turn off' };
const actionLabel = (service: string) => ACTION_LABELS[service] ?? `${service.charAt(0).toUpperCase()}${service.slice(1).replace(/_/g, ' ')}`;

const line = (e: EntityView) => {
  const unit = typeof e.attributes.unit_of_measurement === 'string' ? ` ${e.attributes.unit_of_measurement}` : '';
  const b = typeof e.attributes.brightness === 'number' ? `, brightness ${Math.round((e.attributes.brightness / 255) * 100)}%` : '';
  const t = typeof e.attributes.temperature === 'number' ? `, target ${e.attributes.temperature}°` : '';
  return `- ${e.name} (${e.id}): ${e.state}${unit}${b}${t}${e.guarded ? ' [guarded: chat only proposes, the member confirms]' : ''}${e.services.length ? `; can: ${e.services.join(', ')}` : ''}`;
};

export function createHomeControlTool(deps: { control: Pick<ControlService, 'entities' | 'action' | 'check'> }): ChatTool<typeof HomeControlArgs> {
  return {
    id: 'home_control',
    description:
      'The household’s smart home (Home Assistant): read the state of lights, switches, heating, blinds, sensors and locks the member may see, and switch or set one of them. Locks, alarms and garage doors are never operated from chat: calling it with their service shows the member a button to confirm it themselves.',
    args: HomeControlArgs,
    timeoutMs: TIMEOUT_MS,
    async run(args, ctx): Promise<ChatToolResult> {
      const all = await deps.control.entities(ctx.actor);
      if (all.status !== 'connected') return { content: all.message ?? 'Home Assistant is not available.', summary: 'Smart home: not available', sources: [] };
      const entities = all.areas.flatMap((a) => a.entities.map((e) => ({ ...e, area: a.name })));
      if (!args.entity) {
        if (entities.length === 0) return { content: 'The member may not see any device of the smart home yet; an admin chooses them.', summary: 'Smart home: no devices', sources: [] };
        const text = all.areas.map((a) => `${a.name}:\n${a.entities.map(line).join('\n')}`).join('\n');
        return { content: text, summary: `Read ${entities.length} smart home devices`, sources: [] };
      }
      const wanted = args.entity.trim().toLowerCase();
      const found = entities.find((e) => e.id === wanted) ?? entities.find((e) => e.name.toLowerCase() === wanted) ?? entities.find((e) => e.name.toLowerCase().includes(wanted));
      if (!found) return { content: `No device the member may see matches "${args.entity}".`, summary: 'Smart home: no such device', sources: [] };
      if (!args.service) return { content: line(found), summary: `Read ${found.name}`, sources: [] };
      const data: Record<string, number> = {};
      if (args.brightness_pct !== undefined) data.brightness_pct = args.brightness_pct;
      if (args.temperature !== undefined) data.temperature = args.temperature;
      const words = args.service.replace(/_/g, ' ');
      if (!found.services.includes(args.service)) return { content: `${found.name} cannot ${words} from Hearth. It can: ${found.services.join(', ') || 'nothing (read-only)'}.`, summary: `Smart home: ${found.name} cannot ${words}`, sources: [] };
      if (found.guarded)
        return {
          content: `${found.name} is a guarded device, so chat does not operate it. A button to ${words} ${found.name} is shown to the member under this answer; tell them to press it if they mean it (it asks Home Assistant only when they do).`,
          summary: `Proposed: ${words} ${found.name} (needs your confirmation)`,
          sources: [],
          action: { kind: 'home_action', entityId: found.id, service: args.service, data, label: `${actionLabel(args.service)} ${found.name}` },
        };
      const after = await deps.control.action(ctx.actor, found.id, { service: args.service, data }, 'chat');
      return { content: after ? `Done. ${line(after)}` : 'Done.', summary: `${args.service.replace(/_/g, ' ')} ${found.name}`, sources: [] };
    },
  };
}
