// The auth feature's public surface: what other features may use (eslint.config.js: a feature imports
// another only through its index). No page component here: pages are loaded lazily (pages.ts).
export { digitsOnly, isWeakPin, NAME_HINT, nameLengthProblem, nameProblem, PIN_MAX_DIGITS, pinProblem, WEAK_PIN_WARNING } from './pin-rules';
