export * from './auth.config';
export * from './auth.service-definition';
export * from './promote-user';
