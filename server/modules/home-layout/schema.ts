import { z } from 'zod';

export const MAX_LAYOUT_BYTES = 64 * 1024;
export const MAX_ROWS = 100;

export const KEY_LAYOUT = 'home.layout';
export const KEY_LOCKED = 'home.layout.locked';
export const KEY_DEFAULT = 'home.layout.default';
export const KEY_LEGACY_HIGHLIGHTS = 'home.highlights';

export const Header = z.strictObject({ weather: z.boolean(), jokes: z.boolean(), sports: z.boolean(), locked: z.boolean() });

export const Column = z.strictObject({
  toolId: z.string().min(1).max(100),
  colSpan: z.union([z.literal(1), z.literal(2)], { error: 'colSpan is 1 or 2.' }),
});

export const Row = z
  .strictObject({ id: z.string().min(1).max(64), cols: z.array(Column).max(2, 'A row holds at most 2 columns.') })
  .refine((r) => r.cols.reduce((n, c) => n + c.colSpan, 0) <= 2, 'The columns of a row span at most 2.');

export const HomeLayout = z
  .strictObject({ header: Header, canvas: z.array(Row).max(MAX_ROWS, `A layout has at most ${MAX_ROWS} rows.`) })
  .refine((l) => new Set(l.canvas.map((r) => r.id)).size === l.canvas.length, 'Row ids must be unique.');
export type HomeLayout = z.infer<typeof HomeLayout>;

/** The legacy per-user preference folded into the header at read time. */
export const LegacyHighlights = z.object({ sports: z.boolean().optional(), jokes: z.boolean().optional() }).loose();

export const LayoutResponse = z.object({ layout: HomeLayout, locked: z.boolean(), custom: z.boolean() });
export type LayoutResponse = z.infer<typeof LayoutResponse>;
/** The household's default layout (admin). */
export const DefaultLayoutResponse = z.object({ layout: HomeLayout });
export type DefaultLayoutResponse = z.infer<typeof DefaultLayoutResponse>;

export const UserLayoutParams = z.object({ userId: z.string().min(1).max(64) });
export const SetUserLayoutBody = z
  .strictObject({ layout: HomeLayout.nullable().optional(), locked: z.boolean().optional() })
  .refine((b) => b.layout !== undefined || b.locked !== undefined, 'Send a layout, a lock, or both.');
export type SetUserLayoutBody = z.infer<typeof SetUserLayoutBody>;
