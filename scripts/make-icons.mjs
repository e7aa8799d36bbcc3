// Renders Hearth's icons from the SVG below into resources/icons/ (run once after changing the
// drawing: `node scripts/make-icons.mjs`; the PNGs are committed). icon.png is the 1024 px app icon
// electron-builder turns into .icns/.ico; tray*.png are the tray icons, trayTemplate*.png the macOS
// menu-bar template (black with transparency, tinted by macOS).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'resources', 'icons');
mkdirSync(out, { recursive: true });

// a house whose doorway holds a flame, on a 64-unit grid
const HOUSE = 'M32 6 L58 28 L52 28 L52 58 L12 58 L12 28 L6 28 Z';
const FLAME = 'M32 26 C36 33 42 37 42 45 C42 51.5 37.5 55 32 55 C26.5 55 22 51.5 22 45 C22 40 25 37 27 34 C27.5 38 29 40 31 41 C30 36 30 31 32 26 Z';

const appIcon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">
  <defs><linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#f97316"/><stop offset="1" stop-color="#c2410c"/></linearGradient></defs>
  <rect x="2" y="2" width="60" height="60" rx="14" fill="url(#bg)"/>
  <g transform="translate(8 8) scale(0.75)"><path d="${HOUSE}" fill="#fff7ed"/><path d="${FLAME}" fill="#ea580c"/></g>
</svg>`;

const trayColour = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><path d="${HOUSE}" fill="#ea580c"/><path d="${FLAME}" fill="#fff7ed"/></svg>`;
const trayTemplate = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><mask id="m"><rect width="64" height="64" fill="#fff"/><path d="${FLAME}" fill="#000"/></mask><path d="${HOUSE}" fill="#000" mask="url(#m)"/></svg>`;

const render = (svg, size, file) => sharp(Buffer.from(svg), { density: Math.min(72 * (size / 64) * 4, 4608) }).resize(size, size).png().toFile(path.join(out, file));

await render(appIcon, 1024, 'icon.png');
await render(trayColour, 16, 'tray.png');
await render(trayColour, 32, 'tray@2x.png');
await render(trayTemplate, 16, 'trayTemplate.png');
await render(trayTemplate, 32, 'trayTemplate@2x.png');
console.log(`icons written to ${out}`);
