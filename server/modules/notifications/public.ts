// What other modules may use of the notifications module besides its service: condition notifications.
export type { ConditionNotifications, ConditionText } from './conditions.js';
