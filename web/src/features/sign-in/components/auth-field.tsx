/** A labelled input of the sign-in screens, with its validation message tied to it for screen readers. */
export interface AuthFieldProps {
  id: string;
  label: string;
  type: 'email' | 'text';
  autoComplete: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  readOnly?: boolean;
  placeholder?: string;
  autoFocus?: boolean;
}

export function AuthField({ id, label, error, onChange, ...input }: AuthFieldProps) {
  const errorId = `${id}-error`;
  return (
    <div className="auth-field">
      <label className="auth-field-label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="text-input"
        {...input}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
      />
      {error && (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
