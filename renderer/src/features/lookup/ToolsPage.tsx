// /tools (issue 38): small household tools. This branch brings the Lookup card; the converter and
// the speed test join this page beside it (each a self-contained card).
import type { ReactElement } from 'react';
import { PageHeader } from '../../ui/PageHeader';
import { LookupCard } from './LookupCard';

export function ToolsPage(): ReactElement {
  return (
    <section className="page tools" aria-labelledby="tools-title">
      <PageHeader titleId="tools-title" title="Tools" description="Small helpers for the household." />
      <LookupCard />
    </section>
  );
}
