// Unpacking program bundles: .tar.gz and .zip told apart by content, entries that would land
// outside the folder refused.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { create as createTar } from 'tar';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleFormat, unpackBundle } from '../../server/platform/unpack.js';
import { makeTempDir } from '../harness/temp-dir.js';

const temp = makeTempDir();
afterAll(() => temp.remove());

const pyZip = (file: string, entries: Record<string, string>) =>
  execFileSync('python3', ['-c', 'import sys, json, zipfile\nz = zipfile.ZipFile(sys.argv[1], "w")\nfor k, v in json.loads(sys.argv[2]).items(): z.writestr(k, v)\nz.close()', file, JSON.stringify(entries)]);

describe('unpackBundle', () => {
  it('unpacks a .tar.gz whatever its name', async () => {
    const src = path.join(temp.dir, 'src');
    mkdirSync(path.join(src, 'tools-1.0'), { recursive: true });
    writeFileSync(path.join(src, 'tools-1.0', 'kiwix-serve'), 'x');
    const file = path.join(temp.dir, 'bundle.bin');
    await createTar({ gzip: true, file, cwd: src }, ['tools-1.0']);
    const out = path.join(temp.dir, 'out-tar');
    mkdirSync(out);
    expect(await unpackBundle(file, out)).toBe('tar.gz');
    expect(readFileSync(path.join(out, 'tools-1.0', 'kiwix-serve'), 'utf8')).toBe('x');
  });

  it('unpacks a .zip', async () => {
    const file = path.join(temp.dir, 'tools.zip');
    pyZip(file, { 'kiwix-tools_win-x86_64-3.7.0/kiwix-serve.exe': 'MZ', 'kiwix-tools_win-x86_64-3.7.0/README': 'r' });
    const out = path.join(temp.dir, 'out-zip');
    mkdirSync(out);
    expect(await unpackBundle(file, out)).toBe('zip');
    expect(readFileSync(path.join(out, 'kiwix-tools_win-x86_64-3.7.0', 'kiwix-serve.exe'), 'utf8')).toBe('MZ');
  });

  it('refuses a zip entry that climbs out of the folder', async () => {
    const file = path.join(temp.dir, 'evil.zip');
    pyZip(file, { '../../escaped.txt': 'no' });
    const out = path.join(temp.dir, 'out-evil', 'inner');
    mkdirSync(out, { recursive: true });
    await expect(unpackBundle(file, out)).rejects.toThrow();
    expect(existsSync(path.join(temp.dir, 'escaped.txt'))).toBe(false);
  });

  it('refuses anything else', async () => {
    const file = path.join(temp.dir, 'page.html');
    writeFileSync(file, '<html>not found</html>');
    expect(await bundleFormat(file)).toBeNull();
    await expect(unpackBundle(file, temp.dir)).rejects.toThrow(/neither/);
  });
});
