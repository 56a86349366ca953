export * from './signal.service-definition';
