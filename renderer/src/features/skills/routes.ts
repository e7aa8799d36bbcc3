// The skills feature's signed-in page (issue 38): the member's skills, opened from chat's skill
// menu. React-free: the start-up loader reads these (through app/page-table.ts).
import type { PageRoute } from '../../app/page-types.js';

export const routes = [{ id: 'skills', path: 'skills', access: 'user', module: 'features/skills/SkillsPage', prefetch: () => ['/api/skills'] }] as const satisfies readonly PageRoute[];
