export * from './realtime.service-definition';
