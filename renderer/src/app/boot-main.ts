// The loader's entry: the build bundles this file into the inline script at the end of index.html
// (renderer/boot-plugin.ts), which reads its settings from the JSON block the build writes beside it.
import { boot, type BootConfig, type BootWindow } from './boot-loader.js';

const settings = document.getElementById('hearth-boot');
if (settings?.textContent) boot(JSON.parse(settings.textContent) as BootConfig, window as unknown as BootWindow);
