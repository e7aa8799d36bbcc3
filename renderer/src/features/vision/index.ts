// The vision feature's public surface: what other features may use (eslint.config.js: a feature
// imports another only through its index). The Tools page shows the card.
export { VisionCard } from './VisionCard';
// chat offers pictures to a model that cannot see when the household's vision model can look
export { useVisionStatus } from './queries';
