// The tool registry. Each feature module exports its own ToolDefinitions (modules/<x>/extensions.ts)
// and lists them in its manifest; the tools module gathers them, so the list lives with the features and cannot drift.
import { TOOL_ROUTES, type ToolDefinition } from './schema.js';

export class ToolRegistry {
  private readonly tools = new Map<string, ToolDefinition>();

  register(...defs: ToolDefinition[]): this {
    for (const d of defs) {
      if (this.tools.has(d.id)) throw new Error(`tool ${d.id} is registered twice`);
      const route = TOOL_ROUTES[d.id];
      if (!d.offline && !route) throw new Error(`app ${d.id} has no page route in TOOL_ROUTES`);
      if (d.offline && route) throw new Error(`extension ${d.id} must not have a page route`);
      this.tools.set(d.id, d);
    }
    return this;
  }

  list(): ToolDefinition[] {
    return [...this.tools.values()];
  }

  get(id: string): ToolDefinition | undefined {
    return this.tools.get(id);
  }

  routeOf(id: string): string | null {
    return TOOL_ROUTES[id] ?? null;
  }
}
