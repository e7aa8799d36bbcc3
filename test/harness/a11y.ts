// Accessibility checks for the browser tests: axe-core (through @axe-core/playwright) on the page
// as it is now, failing on any violation axe rates serious or critical, with every such violation
// listed (rule, impact, what it means and the first elements it found) in the failure message.
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

const SERIOUS = new Set(['serious', 'critical']);

/** The serious and critical axe violations on the page, one readable line (plus its elements) each. */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => SERIOUS.has(v.impact ?? ''))
    .map((v) => {
      const nodes = v.nodes.slice(0, 5).map((n) => `    ${n.target.join(' ')}: ${n.failureSummary?.replace(/\s+/g, ' ').trim() ?? ''}`);
      return [`${v.id} (${v.impact}): ${v.help}`, ...nodes, ...(v.nodes.length > 5 ? [`    and ${v.nodes.length - 5} more`] : [])].join('\n');
    });
}

/** Throws, listing them, when axe finds a serious or critical violation on the page. */
export async function expectNoSeriousA11yViolations(page: Page, where = new URL(page.url()).pathname): Promise<void> {
  const found = await seriousA11yViolations(page);
  if (found.length) throw new Error(`serious accessibility violations on ${where}:\n${found.join('\n')}`);
}
