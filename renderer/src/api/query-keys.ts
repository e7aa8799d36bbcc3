// The query keys that two features invalidate in each other (a tool switched on from a notification,
// an install request that reaches the admins' notifications). They live here, below both features,
// so neither feature's queries.ts imports the other's (that was an import cycle).
export const TOOLS_KEY = ['tools'] as const;
export const NOTIFICATIONS_KEY = ['notifications'] as const;
/** Content dials (issue 32): the caller's (['content','mine']) and each member's, which the image
 * protections page reads too; a change on either page invalidates both. */
export const CONTENT_KEY = ['content'] as const;
export const IMAGE_GRANTS_KEY = ['image-admin', 'grants'] as const;
