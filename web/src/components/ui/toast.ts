import { toast } from 'sonner';

/** Toasts with the spec's texts (section 8): top-centre, 3000 ms, set on the <Toaster> in app.tsx. */
export const notify = {
  /** One toast per text (the same failure twice does not stack); `description` adds a line under it. */
  error: (text: string, description?: string) => toast.error(text, { id: text, description }),
  success: (text: string) => toast.success(text, { id: text }),
};
