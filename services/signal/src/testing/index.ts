/** What tests and smoke checks use to speak to the signal server; not part of the service. */
export * from './peer-client';
