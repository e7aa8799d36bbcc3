// The music request's limits, checked against the server's schema by type (the page's bundle does
// not pull zod in).
import type { MAX_PROMPT_CHARS as SERVER_MAX_PROMPT, MAX_SECONDS as SERVER_MAX, MIN_SECONDS as SERVER_MIN } from '../../../../server/modules/music/schema.js';

export const MIN_SECONDS: typeof SERVER_MIN = 5;
export const MAX_SECONDS: typeof SERVER_MAX = 47;
export const MAX_PROMPT_CHARS: typeof SERVER_MAX_PROMPT = 500;
