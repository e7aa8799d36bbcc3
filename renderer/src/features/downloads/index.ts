// The downloads feature's public surface: what other features may use (eslint.config.js: a feature imports
// another only through its index). No page component here: pages are loaded lazily (pages.ts).
export { JOB_STATE_TEXT, JobProgress } from './JobProgress';
export { JOBS_KEY, useJobsStatus, useRetryAllFailed } from './queries';
export type { JobProgress as DownloadJob, JobsResponse } from './types';
