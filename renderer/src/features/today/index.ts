// The today feature's public surface: what other features may use (the home widgets). No page
// component here: pages are loaded lazily (pages.ts).
export { useBriefing, useNews, useOnThisDay, useSports, useTodaySections, useWeather, TODAY_KEY } from './queries';
export { matchLine } from './as-of';
export { Freshness } from './Freshness';
export { degrees, hourOf } from './as-of';
export { TeamBadge, TodayMatches } from './Matches';
