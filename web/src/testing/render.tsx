import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { StrictMode, type ReactElement, type ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { createQueryClient } from '../api/queries';
import { AuthProvider } from '../signed-in/auth-context';

/** Shows where the app went, for assertions on navigation. */
export function Here({ name }: { name: string }) {
  const location = useLocation();
  return (
    <p data-testid="here">
      {name} {location.pathname}
    </p>
  );
}

/** Renders with the app's query client (its toasts and refetches) and a router at `path`. */
export function renderWithApi(ui: ReactElement, path = '/') {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );
}

/**
 * Renders one screen at `url` inside the app's providers, in StrictMode like main.tsx (effects run
 * twice), with stand-ins for the other screens so navigation can be asserted.
 */
export function renderScreen(
  url: string,
  path: string,
  screen: ReactNode,
  others: Record<string, ReactNode> = {},
) {
  return render(
    <StrictMode>
      <QueryClientProvider client={createQueryClient()}>
        <AuthProvider>
          <MemoryRouter initialEntries={[url]}>
            <Routes>
              <Route path={path} element={screen} />
              {Object.entries(others).map(([otherPath, element]) => (
                <Route key={otherPath} path={otherPath} element={element} />
              ))}
              <Route path="*" element={<Here name="elsewhere" />} />
            </Routes>
          </MemoryRouter>
        </AuthProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
}
