// The home editor's layout edits: every result still passes the server's HomeLayout schema
// (spans 1 or 2, at most two columns per row spanning at most 2, unique row ids).
import { describe, expect, it } from 'vitest';
import {
  addRow,
  addWidget,
  canBeWide,
  moveRow,
  moveWidget,
  newRowId,
  removeRow,
  removeWidget,
  setColSpan,
  withoutRetiredWidgets,
  type HomeLayout,
} from '../../renderer/src/features/home/layout-edit.js';
import { HomeLayout as HomeLayoutSchema } from '../../server/modules/home-layout/schema.js';

const base = (): HomeLayout => ({
  header: { weather: true, jokes: false, sports: false, locked: false },
  canvas: [
    { id: 'a', cols: [{ toolId: 'library', colSpan: 2 }] },
    { id: 'b', cols: [{ toolId: 'reader', colSpan: 1 }] },
  ],
});

const valid = (l: HomeLayout) => {
  expect(HomeLayoutSchema.safeParse(l).success).toBe(true);
  return l;
};

describe('home layout edits', () => {
  it('adds a row with one wide widget and a fresh id', () => {
    const l = valid(addRow(base(), 'archive_search', 'c'));
    expect(l.canvas[2]).toEqual({ id: 'c', cols: [{ toolId: 'archive_search', colSpan: 2 }] });
    let n = 0;
    expect(newRowId(base(), () => (n++ === 0 ? 'x' : 'y'))).toBe('row-x');
    expect(newRowId({ ...base(), canvas: [{ id: 'row-x', cols: [] }] }, () => (n++ % 2 ? 'x' : 'z'))).not.toBe('row-x');
  });

  it('adding beside a lone wide widget makes both narrow; a full row takes no more', () => {
    const l = valid(addWidget(base(), 0, 'reader'));
    expect(l.canvas[0]!.cols).toEqual([
      { toolId: 'library', colSpan: 1 },
      { toolId: 'reader', colSpan: 1 },
    ]);
    expect(addWidget(l, 0, 'archive_search')).toEqual(l);
    expect(valid(addWidget({ ...base(), canvas: [{ id: 'e', cols: [] }] }, 0, 'reader')).canvas[0]!.cols).toEqual([{ toolId: 'reader', colSpan: 2 }]);
  });

  it('only a widget alone in its row can be wide', () => {
    const two = addWidget(base(), 0, 'reader');
    expect(canBeWide(two.canvas[0]!)).toBe(false);
    expect(setColSpan(two, 0, 0, 2)).toEqual(two);
    const wide = valid(setColSpan(base(), 1, 0, 2));
    expect(wide.canvas[1]!.cols[0]!.colSpan).toBe(2);
    expect(valid(setColSpan(base(), 0, 0, 1)).canvas[0]!.cols[0]!.colSpan).toBe(1);
  });

  it('moves rows and widgets, ignoring moves past either end', () => {
    expect(moveRow(base(), 1, -1).canvas.map((r) => r.id)).toEqual(['b', 'a']);
    expect(moveRow(base(), 0, -1).canvas.map((r) => r.id)).toEqual(['a', 'b']);
    expect(moveRow(base(), 1, 1).canvas.map((r) => r.id)).toEqual(['a', 'b']);
    const two = addWidget(base(), 0, 'reader');
    expect(moveWidget(two, 0, 0, 1).canvas[0]!.cols.map((c) => c.toolId)).toEqual(['reader', 'library']);
  });

  it('removes rows and widgets without touching the input', () => {
    const before = base();
    const copy = structuredClone(before);
    expect(valid(removeRow(before, 0)).canvas.map((r) => r.id)).toEqual(['b']);
    expect(valid(removeWidget(before, 1, 0)).canvas[1]!.cols).toEqual([]);
    expect(before).toEqual(copy);
  });

  it('leaves out widgets this version does not have, and rows left empty by that, keeping the header as it was', () => {
    const old: HomeLayout = {
      header: { weather: true, jokes: true, sports: true, locked: true },
      canvas: [
        { id: 'a', cols: [{ toolId: 'archive_search', colSpan: 2 }] },
        { id: 'b', cols: [{ toolId: 'archive_search', colSpan: 1 }, { toolId: 'library', colSpan: 1 }] },
        { id: 'c', cols: [{ toolId: 'reader', colSpan: 2 }] },
      ],
    };
    const copy = structuredClone(old);
    const kept = valid(withoutRetiredWidgets(old, (id) => id !== 'archive_search'));
    expect(kept.canvas).toEqual([
      { id: 'b', cols: [{ toolId: 'library', colSpan: 1 }] },
      { id: 'c', cols: [{ toolId: 'reader', colSpan: 2 }] },
    ]);
    expect(kept.header).toEqual(old.header);
    expect(old).toEqual(copy);
  });
});
