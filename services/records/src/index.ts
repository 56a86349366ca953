export * from './records.config';
export * from './records.service-definition';
