// Opens a page from the signed-in navigation the way a person would: on a phone, the pages that are
// not tabs (App Store, Downloads) are under More, so tap More first when the link is not on screen;
// an admin page (Members, Features, Archives…) is reached through the Admin entry and its list.
import type { Page } from 'playwright-core';

export async function openFromNav(page: Page, name: string, how: 'tap' | 'click' = 'tap'): Promise<void> {
  const press = (l: ReturnType<Page['getByRole']>) => (how === 'tap' ? l.tap() : l.click());
  const nav = page.getByRole('navigation', { name: 'Main' });
  const link = nav.getByRole('link', { name, exact: true });
  await nav.getByRole('link', { name: 'Home', exact: true }).waitFor();
  if ((await link.count()) === 0) {
    await press(nav.getByRole('link', { name: 'Admin', exact: true }));
    await press(page.getByRole('list', { name: 'Admin pages' }).getByRole('link', { name: new RegExp(`^${name}`) }));
    return;
  }
  if (!(await link.isVisible())) await press(nav.getByRole('button', { name: 'More' }));
  await press(link);
}
