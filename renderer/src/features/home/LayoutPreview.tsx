// A layout shown read-only, as its owner would see it, for the admin screens.
import type { ReactElement } from 'react';
import { useTools } from '../apps';
import type { HomeLayout } from './layout-edit';
import { HomeCanvas, visibleRows } from './widgets';

export function LayoutPreview({ layout, label }: { layout: HomeLayout; label: string }): ReactElement {
  const { isVisible } = useTools();
  const empty = visibleRows(layout, isVisible).length === 0;
  return (
    <div className="layout-preview" role="group" aria-label={label} data-testid="layout-preview">
      <p className="layout-preview__tag">Preview</p>
      {empty ? <p className="muted">No widgets.</p> : <HomeCanvas layout={layout} label="Widgets" />}
    </div>
  );
}
