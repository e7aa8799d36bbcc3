// One conversion: the preset's program run on the job's input in the job's folder, with progress
// told as it goes (ffmpeg's own; nothing for the others, whose elapsed time the runner reports).
// The programs are spoken to through adapters/converter/programs.ts.
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { convertPicture, probeMedia, producedFile, progressReader, type ConverterPrograms, type ToolFence } from '../../adapters/converter/programs.js';
import { ffmpegArgs, ghostscriptArgs, heifArgs, isHeif, PANDOC_DROP_PICTURES, pandocArgs, sofficeArgs, type PresetDefinition } from './presets.js';
import type { ToolName } from './schema.js';

export interface ConvertInput {
  preset: PresetDefinition;
  /** The job's folder (the input inside it, the output written there). */
  dir: string;
  input: string;
  head: Buffer;
  signal: AbortSignal;
  /** ffmpeg's progress: the share done (0-1) as it goes. */
  onProgress: (share: number) => void;
  /** The program that does the work, once known (HEIC photos: heif-convert). */
  onTool: (tool: ToolName) => void;
}

export async function convert(fence: ToolFence, programs: ConverterPrograms, c: ConvertInput): Promise<{ file: string; bytes: number }> {
  const { preset, dir, input, signal } = c;
  const run = { cwd: dir, signal, timeoutMs: preset.timeoutMs, memoryBytes: preset.memoryBytes };
  const out = path.join(dir, `output.${preset.output}`);
  switch (preset.id) {
    case 'photo-jpeg':
    case 'image-webp': {
      const format = preset.id === 'photo-jpeg' ? 'jpeg' : 'webp';
      if (!isHeif(c.head)) {
        c.onTool('sharp');
        return { file: out, bytes: await convertPicture(input, out, format) };
      }
      // an iPhone photo: heif-convert makes the JPEG (sharp cannot read HEIC), sharp the WebP from it
      c.onTool('heif-convert');
      const jpeg = path.join(dir, format === 'jpeg' ? 'output.jpg' : 'decoded.jpg');
      await fence.run({ ...run, tool: 'heif-convert', args: heifArgs(input, jpeg) });
      const made = await firstJpeg(dir, jpeg);
      if (format === 'jpeg') return { file: made, bytes: await producedFile(made, 'heif-convert') };
      return { file: out, bytes: await convertPicture(made, out, 'webp') };
    }
    case 'video-mp4':
    case 'audio-mp3': {
      c.onTool('ffmpeg');
      const facts = await probeMedia(fence, input, dir, signal, preset.id === 'video-mp4' ? 'video' : 'audio');
      const onLine = progressReader((seconds, ended) => {
        if (ended) c.onProgress(1);
        else if (facts.durationSeconds) c.onProgress(Math.min(1, seconds / facts.durationSeconds));
      });
      await fence.run({ ...run, tool: 'ffmpeg', args: ffmpegArgs(preset.id, input, out, facts), onLine });
      return { file: out, bytes: await producedFile(out, 'ffmpeg') };
    }
    case 'pdf-smaller':
      c.onTool('gs');
      await fence.run({ ...run, tool: 'gs', args: ghostscriptArgs(input, out) });
      return { file: out, bytes: await producedFile(out, 'gs') };
    case 'markdown-docx':
      c.onTool('pandoc');
      await writeFile(path.join(dir, 'drop-pictures.lua'), PANDOC_DROP_PICTURES);
      await fence.run({ ...run, tool: 'pandoc', args: pandocArgs(input, out, path.join(dir, 'drop-pictures.lua')) });
      return { file: out, bytes: await producedFile(out, 'pandoc') };
    case 'document-pdf': {
      c.onTool('soffice');
      const outDir = path.join(dir, 'out');
      await fence.run({ ...run, tool: 'soffice', args: sofficeArgs(input, outDir, path.join(dir, 'profile')), env: { HOME: dir } });
      const made = path.join(outDir, `${path.basename(input).replace(/\.[^.]*$/, '')}.pdf`);
      return { file: made, bytes: await producedFile(made, 'soffice') };
    }
  }
}

/** heif-convert writes `name-1.jpg`, `name-2.jpg` … for a file holding several pictures: the first. */
async function firstJpeg(dir: string, wanted: string): Promise<string> {
  const base = path.basename(wanted, '.jpg');
  const names = await readdir(dir);
  if (names.includes(path.basename(wanted))) return wanted;
  const numbered = names.filter((n) => n.startsWith(`${base}-`) && n.endsWith('.jpg')).sort();
  return numbered[0] ? path.join(dir, numbered[0]) : wanted;
}
