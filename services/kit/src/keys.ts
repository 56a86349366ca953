/** DI token for the JWT secret every service verifies access tokens with. */
export const JWT_SECRET = Symbol('JWT_SECRET');
/** DI token for the shared secret of internal (service-to-service) calls. */
export const SERVICE_TOKEN = Symbol('SERVICE_TOKEN');
/** DI token for the service's pino logger. */
export const LOGGER = Symbol('LOGGER');
/** Metadata key under which @Endpoint()/@InternalEndpoint() keep the proto route. */
export const ROUTE_METADATA = 'uis:route';
/** DI token for the service name (logs, health). */
export const SERVICE_NAME = Symbol('SERVICE_NAME');
