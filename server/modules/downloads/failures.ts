// The "downloads failed" condition the admins are told about (a condition notification, see
// notifications/conditions.ts): raised when a job fails for good, its words kept current while
// failed jobs remain, and gone once none is left (retried and finished, or cancelled).
import type { ConditionText } from '../notifications/public.js';
import type { DownloadsService } from './service.js';

export const DOWNLOADS_FAILED = 'downloads_failed';

const MAX_NAMED = 4;

/** What the admins read while downloads have failed; null when none has. */
export async function failedDownloadsText(downloads: DownloadsService): Promise<ConditionText | null> {
  const failed = (await downloads.status()).jobs.filter((j) => j.state === 'failed');
  if (!failed.length) return null;
  const link = { link: '/downloads', linkLabel: 'Open Downloads' };
  if (failed.length === 1) {
    const [job] = failed;
    return { title: `${job!.label} could not be downloaded`, body: job!.lastError ?? 'Retry it from Downloads.', ...link };
  }
  const names = failed.slice(0, MAX_NAMED).map((j) => j.label);
  const more = failed.length > MAX_NAMED ? ` and ${failed.length - MAX_NAMED} more` : '';
  return {
    title: `${failed.length} downloads could not finish`,
    body: `${names.join(', ')}${more}. Downloads says why for each one and lets you retry them.`,
    ...link,
  };
}
