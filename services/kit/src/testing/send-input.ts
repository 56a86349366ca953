import type { HttpMethod } from '@uis/proto';
import type request from 'supertest';

export type Http = ReturnType<typeof request>;

/** A call the way the web client makes it: GET with the input as the query, POST with it as JSON. */
export const sendInput = (http: Http, method: HttpMethod, path: string, input: object = {}) =>
  method === 'GET' ? http.get(path).query(input) : http.post(path).send(input);
