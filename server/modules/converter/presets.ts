// The converter's presets: what each reads, which program makes it, and that program's arguments
// (pure: the job runner in convert-service.ts runs them). Household presets from
// reference/household-tools.md §1: phone MP4 (H.264 High, yuv420p, AAC, +faststart, at most 1080p,
// CRF 23, veryfast), MP3 (LAME VBR q2), JPEG (HEIC through heif-convert), WebP resized (sharp),
// PDF (LibreOffice), a smaller PDF (Ghostscript /ebook), DOCX from Markdown (pandoc).
import type { Preset, PresetId, ToolName } from './schema.js';

export interface PresetDefinition extends Preset {
  tool: ToolName;
  /** What the error sentence calls the input ("a video"). */
  reads: string;
  mime: string;
  /** Time limit of one run. */
  timeoutMs: number;
  /** Address-space cap (prlimit --as); x264 needs well over 512 MB (measured, reference §1). */
  memoryBytes: number;
}

const GiB = 1024 ** 3;
const MINUTES = 60_000;

export const PRESETS: readonly PresetDefinition[] = [
  {
    id: 'photo-jpeg',
    label: 'Photo to JPEG',
    description: 'iPhone HEIC, PNG, WebP or TIFF photos as JPEG, which every phone and computer opens.',
    accept: 'image/*,.heic,.heif',
    output: 'jpg',
    tool: 'sharp',
    reads: 'a photo',
    mime: 'image/jpeg',
    timeoutMs: 2 * MINUTES,
    memoryBytes: 2 * GiB,
  },
  {
    id: 'image-webp',
    label: 'Smaller picture (WebP)',
    description: 'A picture at most 2048 pixels wide or tall, as WebP: small enough to send or put on a web page.',
    accept: 'image/*',
    output: 'webp',
    tool: 'sharp',
    reads: 'a picture',
    mime: 'image/webp',
    timeoutMs: 2 * MINUTES,
    memoryBytes: 2 * GiB,
  },
  {
    id: 'video-mp4',
    label: 'Video for phones (MP4)',
    description: 'Any video as H.264 MP4 with AAC sound, at most 1080p: plays on every phone, TV and browser.',
    accept: 'video/*,.mkv,.avi,.mov,.webm,.wmv,.flv,.ts',
    output: 'mp4',
    tool: 'ffmpeg',
    reads: 'a video',
    mime: 'video/mp4',
    timeoutMs: 60 * MINUTES,
    memoryBytes: 2 * GiB,
  },
  {
    id: 'audio-mp3',
    label: 'Audio to MP3',
    description: 'Voice memos, WAV, FLAC, M4A or OGG (or the sound of a video) as MP3.',
    accept: 'audio/*,video/*,.m4a,.flac,.opus',
    output: 'mp3',
    tool: 'ffmpeg',
    reads: 'an audio or video file',
    mime: 'audio/mpeg',
    timeoutMs: 30 * MINUTES,
    memoryBytes: 2 * GiB,
  },
  {
    id: 'document-pdf',
    label: 'Document to PDF',
    description: 'Word, OpenDocument or RTF documents as PDF, to print or send.',
    accept: '.doc,.docx,.odt,.rtf,.txt,.xls,.xlsx,.ods,.ppt,.pptx,.odp',
    output: 'pdf',
    tool: 'soffice',
    reads: 'a document',
    mime: 'application/pdf',
    timeoutMs: 5 * MINUTES,
    memoryBytes: 4 * GiB,
  },
  {
    id: 'pdf-smaller',
    label: 'Smaller PDF',
    description: 'A PDF with its pictures made smaller (150 dpi): easier to e-mail.',
    accept: 'application/pdf,.pdf',
    output: 'pdf',
    tool: 'gs',
    reads: 'a PDF',
    mime: 'application/pdf',
    timeoutMs: 5 * MINUTES,
    memoryBytes: 2 * GiB,
  },
  {
    id: 'markdown-docx',
    label: 'Markdown to Word (DOCX)',
    description: 'A Markdown text file as a Word document.',
    accept: '.md,.markdown,.txt,text/markdown,text/plain',
    output: 'docx',
    tool: 'pandoc',
    reads: 'a Markdown text file',
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    timeoutMs: 2 * MINUTES,
    memoryBytes: 2 * GiB,
  },
];

export const presetById = (id: PresetId): PresetDefinition => PRESETS.find((p) => p.id === id)!;

/** The Debian package that brings each program (the sentence for an admin). */
export const TOOL_PACKAGES: Record<ToolName, string> = {
  ffmpeg: 'ffmpeg',
  'heif-convert': 'libheif-examples',
  sharp: 'sharp (comes with Hearth)',
  soffice: 'libreoffice-writer-nogui',
  gs: 'ghostscript',
  pandoc: 'pandoc',
};

/** Document types LibreOffice is handed under their own extension (it picks its reader by it). */
const DOCUMENT_EXTENSIONS = new Set(['doc', 'docx', 'odt', 'rtf', 'txt', 'xls', 'xlsx', 'ods', 'ppt', 'pptx', 'odp']);

/** The fixed name an input is saved under in its job folder (never the sender's name). */
export function inputName(preset: PresetDefinition, filename: string | null): string {
  const ext = /\.([a-z0-9]{1,8})$/i.exec(filename ?? '')?.[1]?.toLowerCase() ?? '';
  if (preset.id === 'document-pdf') return `input.${DOCUMENT_EXTENSIONS.has(ext) ? ext : 'docx'}`;
  return 'input';
}

/** `<base>.<ext>` from the name the member sent, made safe for a download's file name. */
export function outputName(preset: PresetDefinition, filename: string | null): string {
  const base = (filename ?? '')
    .replace(/\.[^.]*$/, '')
    .replace(/[\\/:*?"<>|\u0000-\u001f]+/g, '_')
    .trim()
    .slice(0, 120);
  return `${base || 'converted'}.${preset.output}`;
}

/** Whether a file's first bytes are an ISO-BMFF HEIF/HEIC (an iPhone photo): sharp cannot read those. */
export function isHeif(head: Buffer): boolean {
  if (head.length < 12 || head.toString('latin1', 4, 8) !== 'ftyp') return false;
  return ['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1'].includes(head.toString('latin1', 8, 12));
}

const FFMPEG_SAFE = ['-hide_banner', '-nostdin', '-protocol_whitelist', 'file,pipe'];
const FFMPEG_TAIL = ['-threads', '2', '-fs', String(4 * GiB), '-nostats', '-progress', 'pipe:1', '-y'];

/** ffmpeg's arguments for the media presets. */
export function ffmpegArgs(id: 'video-mp4' | 'audio-mp3', input: string, output: string, facts: { audio: boolean }): string[] {
  if (id === 'audio-mp3') return [...FFMPEG_SAFE, '-i', input, '-map', '0:a:0', '-vn', '-c:a', 'libmp3lame', '-q:a', '2', ...FFMPEG_TAIL, output];
  return [
    ...FFMPEG_SAFE,
    '-i',
    input,
    '-map',
    '0:v:0',
    ...(facts.audio ? ['-map', '0:a:0', '-c:a', 'aac', '-b:a', '128k'] : []),
    '-vf',
    "scale=w='min(1920,iw)':h='min(1080,ih)':force_original_aspect_ratio=decrease:force_divisible_by=2",
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '23',
    '-profile:v',
    'high',
    '-pix_fmt',
    'yuv420p',
    '-movflags',
    '+faststart',
    ...FFMPEG_TAIL,
    output,
  ];
}

export const heifArgs = (input: string, output: string) => ['-q', '88', input, output];

/** Ghostscript with -dSAFER (no file access beyond its input and output). */
export const ghostscriptArgs = (input: string, output: string) => [
  '-dSAFER',
  '-dBATCH',
  '-dNOPAUSE',
  '-dQUIET',
  '-sDEVICE=pdfwrite',
  '-dCompatibilityLevel=1.5',
  '-dPDFSETTINGS=/ebook',
  `-sOutputFile=${output}`,
  input,
];

/**
 * pandoc with a Lua filter that drops pictures: a picture link would make pandoc embed any file it
 * names (`![](/etc/hostname)`), and pandoc 2.17's `--sandbox` cannot make DOCX at all.
 */
export const pandocArgs = (input: string, output: string, filter: string) => [`--lua-filter=${filter}`, '-f', 'markdown', '-t', 'docx', '-o', output, input];
/** The filter pandocArgs names: each picture becomes its description. */
export const PANDOC_DROP_PICTURES = 'function Image(el) return el.caption end\n';

/** LibreOffice with the job's own profile folder (one instance per profile). */
export const sofficeArgs = (input: string, outDir: string, profileDir: string) => [
  `-env:UserInstallation=file://${profileDir}`,
  '--headless',
  '--norestore',
  '--nolockcheck',
  '--nodefault',
  '--convert-to',
  'pdf',
  '--outdir',
  outDir,
  input,
];
