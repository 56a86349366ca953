export * from './studies.config';
export * from './studies.service-definition';
export { SESSION_DATA_OWNER_LIST } from './deletion/session-data-deletion.service';
