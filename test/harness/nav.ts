// Opens a page from the signed-in navigation the way a person would: on a phone, pages that do not
// fit the bottom tab bar are under More, so tap More first when the link is not on screen.
import type { Page } from 'playwright-core';

export async function openFromNav(page: Page, name: string, how: 'tap' | 'click' = 'tap'): Promise<void> {
  const nav = page.getByRole('navigation', { name: 'Main' });
  const link = nav.getByRole('link', { name, exact: true });
  if (!(await link.isVisible())) {
    const more = nav.getByRole('button', { name: 'More' });
    await (how === 'tap' ? more.tap() : more.click());
  }
  await (how === 'tap' ? link.tap() : link.click());
}
