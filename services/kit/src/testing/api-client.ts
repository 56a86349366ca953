import {
  ErrorEnvelope,
  STATUS,
  routes,
  type AnswerOf,
  type ErrorRes,
  type RequestOf,
  type RouteDef,
  type RouteName,
} from '@uis/proto';
import { bearer } from './people';
import { sendInput, type Http } from './send-input';

/** What a route answered, read through proto: the parsed `res` of a SUCCESS, or the error's. */
export interface ApiAnswer<N extends RouteName> {
  status: number;
  /** The SUCCESS answer's `res`, parsed with the route's answer schema (a mismatch throws). */
  res: AnswerOf<N> | undefined;
  /** The ERROR answer's `res`. */
  error: ErrorRes | undefined;
  /** The body as text (a file route's bytes, or the JSON), for leak checks. */
  text: string;
  headers: Record<string, string | string[] | undefined>;
}

/** A file for an upload route: its bytes and the name the browser would send. */
export interface UploadFile {
  bytes: Buffer;
  name: string;
  contentType?: string;
}

/** A SUCCESS answer's `res`, checked against the route's answer schema (a mismatch throws). */
const answerOf = <N extends RouteName>(name: N, res: unknown): AnswerOf<N> =>
  (routes[name].answer as RouteDef['answer']).parse(res) as AnswerOf<N>;

/**
 * A path parameter, percent-encoded as a browser would: text that is not well-formed UTF-16 (a lone
 * surrogate, which encodeURIComponent refuses) goes as the bytes Node makes of it.
 */
const pathSegment = (value: string): string => {
  try {
    return encodeURIComponent(value);
  } catch {
    return [...Buffer.from(value)]
      .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
      .join('');
  }
};

/** Whom a call is made as: someone with a token (a TestPerson, or Anonymous's null), a raw token, or nobody. */
export type CallerToken = { token: string | null } | string | null | undefined;

/** Input as a test sends it: the route's own request, or anything else to see it refused. */
type AnyInput<N extends RouteName> = RequestOf<N> | Record<string, unknown>;

/**
 * Calls routes of proto's table by name, as a given person (or nobody), the way the web client
 * does: GET with the input as the query, POST as JSON, path parameters filled in, uploads as
 * multipart with the text fields first. Answers are checked against the route's schemas.
 */
export function apiClient(http: () => Http) {
  const send = async <N extends RouteName>(
    name: N,
    input: AnyInput<N>,
    as: CallerToken,
    file?: UploadFile,
  ): Promise<ApiAnswer<N>> => {
    const route: RouteDef = routes[name];
    let path = route.path;
    const rest: Record<string, unknown> = { ...(input as Record<string, unknown>) };
    for (const param of route.path.match(/:\w+/g) ?? []) {
      const key = param.slice(1);
      path = path.replace(param, pathSegment(String(rest[key])));
      delete rest[key];
    }
    const token = typeof as === 'string' ? as : (as?.token ?? undefined);
    const auth: Record<string, string> = token ? bearer(token) : {};
    let req;
    if (route.multipartFile) {
      req = http().post(path).set(auth);
      for (const [key, value] of Object.entries(rest)) void req.field(key, String(value));
      if (file) {
        void req.attach(route.multipartFile, file.bytes, {
          filename: file.name,
          contentType: file.contentType ?? 'video/mp4',
        });
      }
    } else {
      req = sendInput(http(), route.method, path, rest).set(auth);
    }
    const response = await req;
    const body = response.body as { status?: unknown; res?: unknown } | undefined;
    const failure = ErrorEnvelope.safeParse(body);
    const res: AnswerOf<N> | undefined =
      body?.status === STATUS.SUCCESS ? answerOf(name, body.res) : undefined;
    return {
      status: response.status,
      res,
      error: failure.success ? failure.data.res : undefined,
      text: response.text ?? (Buffer.isBuffer(response.body) ? response.body.toString('latin1') : ''),
      headers: response.headers,
    };
  };

  return {
    /** Calls a route and answers whatever it answered. */
    call: <N extends RouteName>(name: N, input: AnyInput<N>, as?: CallerToken) => send(name, input, as),
    /** Calls a route that must succeed and answers its `res`; anything else fails the test, saying why. */
    ok: async <N extends RouteName>(name: N, input: AnyInput<N>, as?: CallerToken): Promise<AnswerOf<N>> => {
      const answer = await send(name, input, as);
      if (answer.status !== 200 || answer.res === undefined) {
        throw new Error(`${name} answered ${answer.status}: ${answer.error?.message ?? answer.text}`);
      }
      return answer.res;
    },
    /** Calls an upload route with a file (omitted: the form has only its text fields). */
    upload: <N extends RouteName>(
      name: N,
      fields: AnyInput<N>,
      file: UploadFile | undefined,
      as?: CallerToken,
    ) => send(name, fields, as, file),
  };
}
export type ApiClient = ReturnType<typeof apiClient>;
