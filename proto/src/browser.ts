/**
 * The part of proto a browser bundles: constants, texts, status markers and clock text helpers,
 * none of which pulls in zod. The web app imports values only from here and types from the index.
 */
export * from './constants';
export * from './peer-ids';
export * from './live-texts';
export * from './status';
export * from './clock-text';
export * from './message-order';
export * from './app-config';
export * from './export-file-names';
