// What the search module asks of other modules (container.ts hands these in).

export interface SearchPorts {
  /** The tools module: whether a tool is on (the pages of a tool that is off are not offered). */
  isEnabled(toolId: string): Promise<boolean>;
}
