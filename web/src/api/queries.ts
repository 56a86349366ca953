import {
  MutationCache,
  QueryCache,
  QueryClient,
  useMutation,
  useQuery,
  type QueryKey,
} from '@tanstack/react-query';
import type { AnswerOf, RequestOf, RouteName } from '@uis/proto';
import { notify } from '../components/ui/toast';
import { call } from './client';
import { callAllPages, type PagedRoute } from './pages';

/**
 * Server state. Query keys start with the route name, so "refetch the lists after each change"
 * (spec section 7) is: a mutation names the routes it invalidates. A failure shows the spec's
 * toast text given as `errorText`; after a failed edit the data is refetched too (spec section 4).
 */
interface Meta extends Record<string, unknown> {
  errorText?: string;
  invalidates?: readonly RouteName[];
}

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: Meta;
    mutationMeta: Meta;
  }
}

export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 5_000 },
      mutations: { retry: false },
    },
    queryCache: new QueryCache({
      onError: (_error, query) => {
        if (query.meta?.errorText) notify.error(query.meta.errorText);
      },
    }),
    mutationCache: new MutationCache({
      onError: (_error, _variables, _context, mutation) => {
        if (mutation.meta?.errorText) notify.error(mutation.meta.errorText);
      },
      onSettled: (_data, _error, _variables, _context, mutation) =>
        Promise.all(
          (mutation.meta?.invalidates ?? []).map((name) => client.invalidateQueries({ queryKey: [name] })),
        ),
    }),
  });
  return client;
}

export const apiKey = <N extends RouteName>(name: N, input?: RequestOf<N>): QueryKey =>
  input === undefined ? [name] : [name, input];

/** A GET route as a query keyed by its name and input. */
/**
 * How often the editor's counts of people (joined, agreed) are read again while it is open, so they
 * follow a session that runs as the researcher watches.
 */
export const EDITOR_COUNTS_REFRESH_MS = 5_000;

export function useApiQuery<N extends RouteName>(
  name: N,
  input: RequestOf<N>,
  options: { errorText?: string; enabled?: boolean; refreshEveryMs?: number } = {},
) {
  return useQuery<AnswerOf<N>>({
    queryKey: apiKey(name, input),
    queryFn: ({ signal }) => call(name, input, signal),
    enabled: options.enabled ?? true,
    refetchInterval: options.refreshEveryMs,
    meta: { errorText: options.errorText },
  });
}

/**
 * A paged list route (a session's records) as one query of every page. Keyed under the route's name,
 * so the mutations that invalidate the route refetch the whole list, but apart from useApiQuery's
 * first page of the same input.
 */
export function useApiAllPages<N extends PagedRoute>(
  name: N,
  input: RequestOf<N>,
  options: { errorText?: string; enabled?: boolean } = {},
) {
  return useQuery<AnswerOf<N>>({
    queryKey: [...apiKey(name, input), 'allPages'],
    queryFn: ({ signal }) => callAllPages(name, input, signal),
    enabled: options.enabled ?? true,
    meta: { errorText: options.errorText },
  });
}

/** A POST route as a mutation that refetches the routes it changes, settled or failed. */
export function useApiMutation<N extends RouteName>(
  name: N,
  options: { errorText?: string; invalidates?: readonly RouteName[] } = {},
) {
  return useMutation<AnswerOf<N>, Error, RequestOf<N>>({
    mutationFn: (input) => call(name, input),
    meta: { errorText: options.errorText, invalidates: options.invalidates },
  });
}
