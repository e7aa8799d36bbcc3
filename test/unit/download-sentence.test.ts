// What a failed download says to a person: a sentence with a next step for each low-level failure,
// no raw error code or host name, and a sentence passes through unchanged.
import { describe, expect, it } from 'vitest';
import { downloadErrorSentence } from '../../server/adapters/web/download-sentence.js';

const RAW = [
  'Could not connect: getaddrinfo ENOTFOUND huggingface.co',
  'Could not connect: getaddrinfo EAI_AGAIN download.kiwix.org',
  'Could not connect: connect ECONNREFUSED 203.0.113.5:443',
  'Could not connect: read ECONNRESET',
  'Could not connect: Connect Timeout Error (attempted address: huggingface.co:443, timeout: 10000ms)',
  'Could not connect: unable to verify the first certificate',
  'Could not connect: other side closed',
  'The server answered 404.',
  'The server answered 403.',
  'The server answered 429.',
  'The server answered 503.',
  'No data for 60 s.',
  'The model runtime is not reachable at http://127.0.0.1:11434.',
  'Pulling qwen2.5:7b failed: pull model manifest: Get "https://registry.ollama.ai/v2/library/qwen2.5/manifests/7b": dial tcp: lookup registry.ollama.ai on 127.0.0.53:53: no such host',
];

describe('downloadErrorSentence', () => {
  it.each(RAW)('turns %s into a sentence with a next step', (raw) => {
    const said = downloadErrorSentence(raw);
    expect(said).not.toBe(raw);
    expect(said).toMatch(/^[A-Z].*[.]$/);
    expect(said).not.toMatch(/E[A-Z]{4,}|getaddrinfo|huggingface|kiwix\.org|registry|127\.0\.0|\b\d{3}\b|Could not connect/);
    expect(said).toMatch(/retry|Retry|tries again|Start it|update of Hearth/);
  });

  it('leaves a sentence as it is (and so is safe to apply twice)', () => {
    const once = downloadErrorSentence(RAW[0]!);
    expect(downloadErrorSentence(once)).toBe(once);
    expect(downloadErrorSentence('The downloaded file is damaged (its checksum does not match).')).toBe('The downloaded file is damaged (its checksum does not match).');
  });
});
