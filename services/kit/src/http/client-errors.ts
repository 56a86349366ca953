import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { ERROR_CODES, STATUS, type ErrorEnvelope } from '@uis/proto';

/** What Node refuses before any handler sees the request, said as our API says everything. */
const REFUSALS: Record<string, { status: number; message: string; code: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    message:
      'The request is too large: its address and headers may take 16 KB. Send large input in a POST body.',
    code: ERROR_CODES.PAYLOAD_TOO_LARGE,
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    message: 'The request took too long to arrive.',
    code: ERROR_CODES.VALIDATION,
  },
};
const MALFORMED = { status: 400, message: 'The request is not valid HTTP.', code: ERROR_CODES.VALIDATION };

/**
 * Answers the requests Node's HTTP parser refuses (an address or headers past 16 KB, malformed
 * HTTP) with the usual {status, res} envelope instead of Node's bare status line, so every answer
 * of the API reads the same, whatever went wrong.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || (error.code === 'ECONNRESET' && socket.destroyed)) {
      socket.destroy();
      return;
    }
    const refusal = REFUSALS[error.code ?? ''] ?? MALFORMED;
    const body: ErrorEnvelope = {
      status: STATUS.ERROR,
      res: { message: refusal.message, code: refusal.code },
    };
    const json = JSON.stringify(body);
    socket.end(
      `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? 'Bad Request'}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(json)}\r\n` +
        'Connection: close\r\n\r\n' +
        json,
    );
  });
}
