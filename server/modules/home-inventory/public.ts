// What other modules may use of the home inventory besides its service: the model picker it asks for.
export type { InventoryModelPicker } from './parts.js';
