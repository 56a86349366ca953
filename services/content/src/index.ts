export * from './content.config';
export * from './content.service-definition';
