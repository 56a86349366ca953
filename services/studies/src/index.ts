export * from './studies.service-definition';
