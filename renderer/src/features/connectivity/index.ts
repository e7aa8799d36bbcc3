// What other features use of connectivity: the offline notice their pages show.
export { OfflineNotice } from './OfflineNotice';
