import { AsyncLocalStorage } from 'node:async_hooks';

/** The gateway's request id (or one made for the request), for everything done on its behalf. */
interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs `work` (and everything it starts) as part of the request with this id. */
export const runInRequest = <T>(requestId: string, work: () => T): T => storage.run({ requestId }, work);

/**
 * The id of the request being handled, if any: written in every log line and forwarded on internal
 * calls, so one request can be followed through every service it touches.
 */
export const currentRequestId = (): string | undefined => storage.getStore()?.requestId;
