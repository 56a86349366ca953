import { QueryClientProvider } from '@tanstack/react-query';
import { RESEARCHER, TOAST_MS } from '@uis/proto/browser';
import { lazy, Suspense, useState } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { Toaster } from 'sonner';
import { createQueryClient } from './api/queries';
import { AuthProvider } from './auth/auth-context';
import { PublicOnly, RequireUser } from './auth/route-guards';
import { LoginPage } from './pages/login-page';
import { PATHS } from './routes';

// The login route ships alone; every other screen is its own chunk, loaded when visited.
const SignupPage = lazy(() => import('./pages/signup-page').then((m) => ({ default: m.SignupPage })));
const AuthCallbackPage = lazy(() =>
  import('./pages/auth-callback-page').then((m) => ({ default: m.AuthCallbackPage })),
);
const DashboardPage = lazy(() =>
  import('./pages/dashboard-page').then((m) => ({ default: m.DashboardPage })),
);
const SessionsPage = lazy(() => import('./pages/sessions-page').then((m) => ({ default: m.SessionsPage })));
const EditSessionPage = lazy(() =>
  import('./pages/edit-session-page').then((m) => ({ default: m.EditSessionPage })),
);
const LiveSessionPage = lazy(() =>
  import('./pages/live-session-page').then((m) => ({ default: m.LiveSessionPage })),
);

export function App() {
  const [queryClient] = useState(createQueryClient);
  const login = (
    <PublicOnly>
      <LoginPage />
    </PublicOnly>
  );
  return (
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <BrowserRouter>
          <Suspense fallback={null}>
            <Routes>
              <Route path={PATHS.login} element={login} />
              <Route
                path={PATHS.signup}
                element={
                  <PublicOnly>
                    <SignupPage />
                  </PublicOnly>
                }
              />
              <Route path={PATHS.authCallback} element={<AuthCallbackPage />} />
              <Route
                path={PATHS.dashboard}
                element={
                  <RequireUser type={RESEARCHER}>
                    <DashboardPage />
                  </RequireUser>
                }
              />
              <Route
                path={PATHS.sessions}
                element={
                  <RequireUser>
                    <SessionsPage />
                  </RequireUser>
                }
              />
              <Route
                path={PATHS.editSession}
                element={
                  <RequireUser type={RESEARCHER}>
                    <EditSessionPage />
                  </RequireUser>
                }
              />
              <Route
                path={PATHS.liveSession}
                element={
                  <RequireUser>
                    <LiveSessionPage />
                  </RequireUser>
                }
              />
              <Route path="*" element={login} />
            </Routes>
          </Suspense>
        </BrowserRouter>
      </AuthProvider>
      <Toaster position="top-center" duration={TOAST_MS} richColors closeButton />
    </QueryClientProvider>
  );
}
