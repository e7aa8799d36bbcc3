// What other features use of the locale feature: the member's own language and units card (profile).
export { MemberLocaleCard } from './MemberLocaleCard';
