// What other modules may use of the memory module besides its schema and its service's type.

/** The `remember` chat tool's id (and its Extension's): chat leaves it out of an answer whose question the plain-text rule already kept. */
export const REMEMBER_TOOL_ID = 'remember';
