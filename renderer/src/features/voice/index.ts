// What other features may use of the voice feature.
export { SpeakButton } from './SpeakButton';
export { TalkButton } from './TalkButton';
export { VoiceModeButton, VoiceModePanel } from './VoiceMode';
export { VoiceChoicesCard } from './VoiceChoicesCard';
