export * from './signal.config';
export * from './signal.service-definition';
export * from './peer-client';
export { PEER_MESSAGE_MAX_BYTES } from './peer/peer-signalling';
