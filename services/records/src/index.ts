export * from './records.service-definition';
