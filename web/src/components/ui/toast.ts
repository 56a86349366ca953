import { toast } from 'sonner';

/** Toasts with the spec's texts (section 8): top-centre, 3000 ms, set on the <Toaster> in app.tsx. */
export const notify = {
  error: (text: string) => toast.error(text, { id: text }),
  success: (text: string) => toast.success(text, { id: text }),
};
