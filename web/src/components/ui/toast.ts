/**
 * Toasts with the spec's texts (section 8): top-centre, 3000 ms, set on the <AppToaster> in app.tsx.
 * sonner loads after the first screen is painted (the login route does not wait for it); a toast
 * raised before its <Toaster> mounts is shown when it does.
 */
const sonner = () => import('sonner');

export const notify = {
  /** One toast per text (the same failure twice does not stack); `description` adds a line under it. */
  error: (text: string, description?: string): void =>
    void sonner().then(({ toast }) => toast.error(text, { id: text, description })),
  success: (text: string): void => void sonner().then(({ toast }) => toast.success(text, { id: text })),
};
