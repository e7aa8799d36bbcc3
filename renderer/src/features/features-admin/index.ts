// The features-admin feature's public surface: what other features may use (eslint.config.js: a feature imports
// another only through its index). No page component here: pages are loaded lazily (pages.ts).
export { formatMemory, itemSizeText, SLOW_NOTE } from './item-text';
export { FEATURES_KEY, useFeaturePlan } from './queries';
export { planItems, withRequirements, type CatalogItem, type FeaturePlan, type GpuInfo, type HardwareProfile } from './types';
