// The signed-in pages as the app holds them (a route of a feature's routes.ts with its view from the
// feature's pages.ts, the view's `load` made a lazily loaded component), and what the pages that list
// other pages (Admin, the App Store) read them through: `useShellPages`, the list the router hands
// down. Through this context, not by importing pages.tsx, so that no page imports the list that
// imports it.
import { createContext, useContext, type ComponentType } from 'react';
import type { Role } from '../api/types';
import type { PageRoute } from './page-types';
import type { PageView } from './page-view';

/** A signed-in page: where it lives and what it first asks for (routes.ts), and how it shows (pages.ts). */
export type ShellPage = PageRoute & Omit<PageView, 'load'> & { Component: ComponentType };

export const ShellPagesContext = createContext<readonly ShellPage[]>([]);

/** Every signed-in page, in navigation order (pages.tsx `SHELL_PAGES`). */
export function useShellPages(): readonly ShellPage[] {
  return useContext(ShellPagesContext);
}

export function canOpen(page: Pick<ShellPage, 'access'>, role: Role): boolean {
  return page.access === 'user' || role === 'admin';
}

export const pageHref = (page: Pick<ShellPage, 'path'>) => `/${page.path.replace(/\/\*$/, '')}`;

/** The pages the Admin page lists, in order: the admin pages, then Downloads and the App Store. */
export function adminPagesFor(pages: readonly ShellPage[], role: Role, isVisible: (toolId?: string) => boolean = () => true): ShellPage[] {
  const open = pages.filter((p) => canOpen(p, role) && isVisible(p.toolId));
  return [...open.filter((p) => p.section === 'admin'), ...open.filter((p) => p.section === 'more')];
}
