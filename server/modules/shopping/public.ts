// What other modules may use of the shopping module besides its schema and its service's type.

/** The `shopping_list` chat tool's id (and its Extension's). */
export const SHOPPING_TOOL_ID = 'shopping_list';
