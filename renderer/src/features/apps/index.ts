// The apps feature's public surface: what other features may use (eslint.config.js: a feature imports
// another only through its index). No page component here: pages are loaded lazily (pages.ts).
export { NotReadyNote } from './NotReadyNote';
export { TOOLS_KEY } from './queries';
export { ToolIcon } from './ToolIcon';
export { useTools, type Tool, type ToolResponse } from './tools';
