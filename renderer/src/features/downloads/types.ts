// The download queue as GET /api/jobs/status answers it (types only, from the server's schema).
export type { JobProgress, JobsStatus, JobState } from '../../../../server/modules/downloads/schema.js';
