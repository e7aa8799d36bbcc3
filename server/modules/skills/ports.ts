// What the skills module asks of other modules (container.ts hands these in).
export interface SkillsPorts {
  /** The chat module's tools (id and name); called only after every module is built. */
  chatTools(): Array<{ id: string; name: string }>;
}
