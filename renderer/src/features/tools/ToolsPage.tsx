// Tools (/tools): the household's small tools as cards (cards.ts): the file converter, the speed test, the lookup and photo analysis.
import type { ReactElement } from 'react';
import { PageHeader } from '../../ui/PageHeader';
import { TOOL_CARDS } from './cards';
import './tools.css';

export function ToolsPage(): ReactElement {
  return (
    <section className="page tools" aria-labelledby="tools-title">
      <PageHeader titleId="tools-title" title="Tools" description="Handy things Hearth does on this computer, without sending anything to the internet." />
      <div className="tools__cards">
        {TOOL_CARDS.map(({ id, Card }) => (
          <Card key={id} />
        ))}
      </div>
    </section>
  );
}
