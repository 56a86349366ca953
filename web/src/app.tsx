import { RESEARCHER } from '@uis/proto/browser';
import { lazy, Suspense } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { AuthProvider } from './signed-in/auth-context';
import { PublicOnly, RequireUser } from './signed-in/route-guards';
import { LoginPage } from './pages/login-page';
import { PATHS } from './routes';

// The login route ships alone; every other screen is its own chunk, loaded when visited. The query
// library comes with the signed-in screens' layout, the toasts (sonner) after the first paint.
const ServerStateLayout = lazy(() =>
  import('./api/server-state-layout').then((m) => ({ default: m.ServerStateLayout })),
);
const AppToaster = lazy(() => import('./components/ui/app-toaster').then((m) => ({ default: m.AppToaster })));
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
const DeviceCheckPage = lazy(() =>
  import('./pages/device-check-page').then((m) => ({ default: m.DeviceCheckPage })),
);
const JoinPage = lazy(() => import('./pages/join-page').then((m) => ({ default: m.JoinPage })));
const GuidePage = lazy(() => import('./pages/guide-page').then((m) => ({ default: m.GuidePage })));

export function App() {
  const login = (
    <PublicOnly>
      <LoginPage />
    </PublicOnly>
  );
  return (
    <>
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
              <Route element={<ServerStateLayout />}>
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
                <Route
                  path={PATHS.deviceCheck}
                  element={
                    <RequireUser>
                      <DeviceCheckPage />
                    </RequireUser>
                  }
                />
                <Route
                  path={PATHS.guide}
                  element={
                    <RequireUser type={RESEARCHER}>
                      <GuidePage />
                    </RequireUser>
                  }
                />
                {/* Signed out, a join link lands on its own page (entry without an e-mail). */}
                <Route path={PATHS.join} element={<JoinPage />} />
              </Route>
              <Route path="*" element={login} />
            </Routes>
          </Suspense>
        </BrowserRouter>
      </AuthProvider>
      <Suspense fallback={null}>
        <AppToaster />
      </Suspense>
    </>
  );
}
