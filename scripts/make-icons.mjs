// Makes the web app manifest's PNG icons from renderer/public/favicon.svg (run by hand after the
// logo changes; the PNGs are committed): 192 and 512 px as drawn, and a 512 px maskable one whose
// flame sits inside the middle 80 % on a full-bleed background, so a phone's mask never cuts it.
// `node scripts/make-icons.mjs`. No network.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, 'renderer', 'public', 'icons');
const svg = readFileSync(path.join(root, 'renderer', 'public', 'favicon.svg'));

for (const size of [192, 512]) {
  await sharp(svg, { density: (72 * size) / 64 }).resize(size, size).png().toFile(path.join(out, `icon-${size}.png`));
}

// maskable: the logo without its rounded corners, the flame scaled into the safe zone
const flame = /<path[^>]*\/>/.exec(svg.toString('utf8'))[0];
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="#b84a24"/><g transform="translate(32 32) scale(0.8) translate(-32 -32)">${flame}</g></svg>`;
await sharp(Buffer.from(maskable), { density: 72 * 8 }).resize(512, 512).png().toFile(path.join(out, 'maskable-512.png'));
console.log(`icons written to ${path.relative(root, out)}`);
