// What other modules may use of the models module: how two model names are compared, the role
// picker, and the types of the pull queue and the details cache they are handed through ports.
export type { ModelDetailsCache } from './details.js';
export { sameModel, type ModelPulls } from './pulls.js';
export { bestForRole, capabilitiesOf, visionModelsOf, type InstalledModel } from './roles.js';
