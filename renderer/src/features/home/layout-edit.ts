// Pure edits of a home layout, each returning a new layout that still passes the server's rules:
// a row holds at most two columns whose spans add up to at most 2, spans are 1 or 2, row ids are
// unique. The editor only offers moves these functions allow.
import type { HomeLayout } from '../../../../server/modules/home-layout/schema.js';

export type { HomeLayout };
export type HomeRow = HomeLayout['canvas'][number];
export type HomeColumn = HomeRow['cols'][number];

export const rowSpan = (row: HomeRow): number => row.cols.reduce((n, c) => n + c.colSpan, 0);

/** Another widget fits in the row (a lone wide widget is made narrow to make room). */
export const canAddToRow = (row: HomeRow): boolean => row.cols.length < 2;

/** Only a widget alone in its row can be wide. */
export const canBeWide = (row: HomeRow): boolean => row.cols.length === 1;

export function newRowId(layout: HomeLayout, random: () => string = () => Math.random().toString(36).slice(2, 10)): string {
  const taken = new Set(layout.canvas.map((r) => r.id));
  let id = `row-${random()}`;
  while (taken.has(id)) id = `row-${random()}`;
  return id;
}

const withCanvas = (layout: HomeLayout, canvas: HomeRow[]): HomeLayout => ({ ...layout, canvas });

const mapRow = (layout: HomeLayout, rowIndex: number, f: (row: HomeRow) => HomeRow): HomeLayout =>
  withCanvas(
    layout,
    layout.canvas.map((r, i) => (i === rowIndex ? f(r) : r)),
  );

/** A new row at the end holding one wide widget. */
export function addRow(layout: HomeLayout, toolId: string, id = newRowId(layout)): HomeLayout {
  return withCanvas(layout, [...layout.canvas, { id, cols: [{ toolId, colSpan: 2 }] }]);
}

export function removeRow(layout: HomeLayout, rowIndex: number): HomeLayout {
  return withCanvas(
    layout,
    layout.canvas.filter((_, i) => i !== rowIndex),
  );
}

function move<T>(list: readonly T[], from: number, to: number): T[] {
  if (from < 0 || from >= list.length || to < 0 || to >= list.length || from === to) return [...list];
  const out = [...list];
  const [item] = out.splice(from, 1);
  out.splice(to, 0, item as T);
  return out;
}

export function moveRow(layout: HomeLayout, rowIndex: number, delta: -1 | 1): HomeLayout {
  return withCanvas(layout, move(layout.canvas, rowIndex, rowIndex + delta));
}

/** Adds a narrow widget to a row; a lone wide widget there becomes narrow so both fit. */
export function addWidget(layout: HomeLayout, rowIndex: number, toolId: string): HomeLayout {
  return mapRow(layout, rowIndex, (row) => {
    if (!canAddToRow(row)) return row;
    if (row.cols.length === 0) return { ...row, cols: [{ toolId, colSpan: 2 }] };
    return { ...row, cols: [...row.cols.map((c) => ({ ...c, colSpan: 1 as const })), { toolId, colSpan: 1 }] };
  });
}

export function removeWidget(layout: HomeLayout, rowIndex: number, colIndex: number): HomeLayout {
  return mapRow(layout, rowIndex, (row) => ({ ...row, cols: row.cols.filter((_, i) => i !== colIndex) }));
}

/** Swaps a widget with its neighbour in the same row. */
export function moveWidget(layout: HomeLayout, rowIndex: number, colIndex: number, delta: -1 | 1): HomeLayout {
  return mapRow(layout, rowIndex, (row) => ({ ...row, cols: move(row.cols, colIndex, colIndex + delta) }));
}

export function setColSpan(layout: HomeLayout, rowIndex: number, colIndex: number, colSpan: 1 | 2): HomeLayout {
  return mapRow(layout, rowIndex, (row) => {
    if (colSpan === 2 && !canBeWide(row)) return row;
    return { ...row, cols: row.cols.map((c, i) => (i === colIndex ? { ...c, colSpan } : c)) };
  });
}

/**
 * The layout without columns whose widget this version does not have (retired placeholders such
 * as archive_search), and without rows left empty by that. The header's weather, jokes and sports
 * flags are kept as they are: the server still accepts them, nothing shows them.
 */
export function withoutRetiredWidgets(layout: HomeLayout, hasWidget: (toolId: string) => boolean): HomeLayout {
  const canvas = layout.canvas.map((r) => ({ ...r, cols: r.cols.filter((c) => hasWidget(c.toolId)) })).filter((r) => r.cols.length > 0);
  return withCanvas(layout, canvas);
}
