export * from './signal.config';
export * from './signal.service-definition';
export { PEER_MESSAGE_MAX_BYTES } from './peer/peer-signalling';
export { PEER_END_REASONS } from './peer/admitted-peers';
export { turnCredentials, PUBLIC_STUN_SERVERS, PUBLIC_TURN_SERVERS } from './call-settings/ice-servers';
export * from './coturn/coturn';
export { stunAnswers } from './coturn/stun-probe';
export { DENIED_PEER_RANGES, PEER_RESTRICTIONS } from './coturn/denied-peers';
