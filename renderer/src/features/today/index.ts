// The today feature's public surface: what other features may use (the home widgets). No page
// component here: pages are loaded lazily (pages.ts).
export { useNews, useOnThisDay, useWeather, TODAY_KEY } from './queries';
export { Freshness } from './Freshness';
export { degrees, hourOf } from './as-of';
