import type { ReactNode } from 'react';

interface EditorFieldProps {
  label: string;
  /** The id of the control the label names. */
  htmlFor: string;
  error?: string | undefined;
  children: ReactNode;
  className?: string;
}

/** A labelled control with its error line under it. */
export function EditorField({ label, htmlFor, error, children, className }: EditorFieldProps) {
  return (
    <div className={`editor-field${className ? ` ${className}` : ''}`}>
      <label className="editor-field-label" htmlFor={htmlFor}>
        {label}
      </label>
      {children}
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
