// The download queue as GET /api/jobs/status answers it (types only, from the server's schema).
export type { JobProgress, JobsResponse, JobsStatus, JobState, RetriedResponse } from '../../../../server/modules/downloads/schema.js';
