// Edit mode for a home layout, shared by a person's own Home and the admin screens (household
// default, a member's home screen). Rows are shown as they will be laid out; each row and widget
// has its own controls (move, width, remove), so everything works by touch and keyboard alike.
// Widgets whose app is switched off stay in the layout (shown here, marked) but not on Home.
import { useId, useState, type ReactElement } from 'react';
import { errorMessage } from '../../api/client';
import { Dialog } from '../../ui/Dialog';
import { Icon, Spinner } from '../../ui/icons';
import { FormError } from '../../ui/StateViews';
import { ToolIcon, useTools } from '../apps';
import { useUser } from '../../app/session';
import {
  addRow,
  addWidget,
  canAddToRow,
  canBeWide,
  moveRow,
  moveWidget,
  removeRow,
  removeWidget,
  setColSpan,
  withoutRetiredWidgets,
  type HomeLayout,
} from './layout-edit';
import { WIDGETS, widgetFor, widgetShows } from './widgets';

export interface LayoutEditorProps {
  initial: HomeLayout;
  /** Saves; a thrown error's message is shown in the editor. */
  onSave: (layout: HomeLayout) => Promise<void>;
  onCancel: () => void;
  saveLabel?: string;
  /** Whose layout this is, for the editor's accessible name. */
  label: string;
}

type PickerTarget = { kind: 'new' } | { kind: 'row'; rowIndex: number } | null;

export function LayoutEditor({ initial, onSave, onCancel, saveLabel = 'Save', label }: LayoutEditorProps): ReactElement {
  const { tools, isVisible } = useTools();
  const isAdmin = useUser().role === 'admin';
  // a widget this version no longer has is left out here, so saving drops it for good
  const [layout, setLayout] = useState(() => withoutRetiredWidgets(initial, (id) => widgetFor(id) !== undefined));
  const [picker, setPicker] = useState<PickerTarget>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [announce, setAnnounce] = useState('');
  const rowsId = useId();

  const nameOf = (toolId: string) => widgetFor(toolId)?.name ?? tools?.find((t) => t.id === toolId)?.name ?? toolId;
  const change = (next: HomeLayout, message = '') => {
    setLayout(next);
    setError(null);
    setAnnounce(message);
  };

  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      await onSave(layout);
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  };

  const available = Object.values(WIDGETS).filter((w) => widgetShows(w, isVisible, isAdmin) && (w.tool === null || !tools || tools.some((t) => t.id === w.tool)));
  const rows = layout.canvas;

  return (
    <form
      className="layout-editor"
      aria-label={label}
      data-testid="layout-editor"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <section className="editor-section" aria-labelledby={rowsId}>
        <h2 id={rowsId} className="editor-section__title">
          Widgets
        </h2>
        {rows.length === 0 ? <p className="muted">No widgets yet. Add a row to start.</p> : null}
        <ol className="editor-rows">
          {rows.map((row, ri) => {
            const n = ri + 1;
            return (
              <li key={row.id} className="editor-row" aria-label={`Row ${n}`} data-testid="editor-row">
                <div className="editor-row__bar">
                  <span className="editor-row__name">Row {n}</span>
                  <div className="editor-row__tools">
                    <button type="button" className="btn btn--ghost btn--icon" aria-label={`Move row ${n} up`} disabled={ri === 0 || busy} onClick={() => change(moveRow(layout, ri, -1), `Row ${n} moved up.`)}>
                      <Icon name="up" size={20} />
                    </button>
                    <button
                      type="button"
                      className="btn btn--ghost btn--icon"
                      aria-label={`Move row ${n} down`}
                      disabled={ri === rows.length - 1 || busy}
                      onClick={() => change(moveRow(layout, ri, 1), `Row ${n} moved down.`)}
                    >
                      <Icon name="down" size={20} />
                    </button>
                    <button type="button" className="btn btn--danger-ghost btn--icon" aria-label={`Remove row ${n}`} disabled={busy} onClick={() => change(removeRow(layout, ri), `Row ${n} removed.`)}>
                      <Icon name="trash" size={20} />
                    </button>
                  </div>
                </div>
                <div className="editor-row__grid">
                  {row.cols.map((col, ci) => {
                    const name = nameOf(col.toolId);
                    const hidden = !isVisible(col.toolId);
                    const where = `${name} in row ${n}`;
                    return (
                      <div key={`${col.toolId}-${ci}`} className={`editor-tile widget--span${col.colSpan}${hidden ? ' is-hidden' : ''}`} data-testid={`editor-widget-${col.toolId}`}>
                        <p className="editor-tile__name">
                          <ToolIcon toolId={col.toolId} icon={tools?.find((t) => t.id === col.toolId)?.icon ?? widgetFor(col.toolId)?.icon} size={20} />
                          {name}
                        </p>
                        {hidden ? <p className="editor-tile__note">Switched off, not shown</p> : null}
                        <select
                          className="input editor-tile__width"
                          aria-label={`Width of ${where}`}
                          value={col.colSpan}
                          disabled={busy}
                          onChange={(e) => change(setColSpan(layout, ri, ci, Number(e.target.value) === 2 ? 2 : 1))}
                        >
                          <option value={1}>Half</option>
                          <option value={2} disabled={!canBeWide(row)}>
                            Full
                          </option>
                        </select>
                        <div className="editor-tile__tools">
                          {row.cols.length > 1 ? (
                            <button
                              type="button"
                              className="btn btn--ghost btn--icon"
                              aria-label={ci === 0 ? `Move ${where} right` : `Move ${where} left`}
                              disabled={busy}
                              onClick={() => change(moveWidget(layout, ri, ci, ci === 0 ? 1 : -1), `${name} moved.`)}
                            >
                              <Icon name={ci === 0 ? 'forward' : 'back'} size={20} />
                            </button>
                          ) : null}
                          <button
                            type="button"
                            className="btn btn--danger-ghost btn--icon"
                            aria-label={`Remove ${where}`}
                            disabled={busy}
                            onClick={() => change(removeWidget(layout, ri, ci), `${name} removed.`)}
                          >
                            <Icon name="close" size={20} />
                          </button>
                        </div>
                      </div>
                    );
                  })}
                  {canAddToRow(row) ? (
                    <button type="button" className="editor-tile editor-tile--add" disabled={busy} onClick={() => setPicker({ kind: 'row', rowIndex: ri })} aria-label={`Add a widget to row ${n}`}>
                      <Icon name="plus" size={20} />
                      Add widget
                    </button>
                  ) : null}
                </div>
              </li>
            );
          })}
        </ol>
        <button type="button" className="btn btn--secondary" disabled={busy} onClick={() => setPicker({ kind: 'new' })}>
          <Icon name="plus" size={20} />
          Add a row
        </button>
      </section>

      <p className="visually-hidden" role="status" aria-live="polite">
        {announce}
      </p>
      <FormError message={error} />
      <div className="actions editor-actions">
        <button type="button" className="btn btn--secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
        <button type="submit" className="btn btn--primary" disabled={busy}>
          {busy ? <Spinner size={20} /> : <Icon name="check" size={20} />}
          {saveLabel}
        </button>
      </div>

      <Dialog open={picker !== null} title="Add a widget" onClose={() => setPicker(null)} testId="widget-picker">
        {available.length === 0 ? (
          <p className="muted">No widgets to add. Apps switched on in the App Store bring their widgets.</p>
        ) : (
          <ul className="widget-choices">
            {available.map((w) => {
              const tool = tools?.find((t) => t.id === w.toolId);
              return (
                <li key={w.toolId}>
                  <button
                    type="button"
                    className="widget-choice"
                    onClick={() => {
                      if (!picker) return;
                      const name = tool?.name ?? w.name;
                      if (picker.kind === 'new') change(addRow(layout, w.toolId), `${name} added in a new row.`);
                      else change(addWidget(layout, picker.rowIndex, w.toolId), `${name} added to row ${picker.rowIndex + 1}.`);
                      setPicker(null);
                    }}
                  >
                    <span className="widget-choice__icon" aria-hidden="true">
                      <ToolIcon toolId={w.toolId} icon={tool?.icon ?? w.icon} />
                    </span>
                    <span className="widget-choice__name">{tool?.name ?? w.name}</span>
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </Dialog>
    </form>
  );
}
