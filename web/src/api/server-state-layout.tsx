import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { Outlet } from 'react-router-dom';
import { createQueryClient } from './queries';

/**
 * The query client of the signed-in screens, a layout route around them (app.tsx), so the login
 * route does not load the query library. Its cache lives while the user stays on these screens:
 * signing out or deleting the account leads to /, which unmounts it, so the next user starts empty.
 */
export function ServerStateLayout() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}
