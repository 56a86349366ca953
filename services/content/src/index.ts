export * from './content.service-definition';
