import type { ReactNode } from 'react';
import type { SaveStatus as Status } from '../hooks/use-debounced-edits';
import { SaveStatus } from './save-status';

interface EditorFieldProps {
  label: string;
  /** The id of the control the label names. */
  htmlFor: string;
  /** What is wrong with the value as typed (not sent): shown under the field. */
  error?: string | undefined;
  /** How the field's last save went, beside its label; leave out for a field that is not saved by typing. */
  status?: Status | null;
  /** Help under the control: what the field is for. Its id is `${htmlFor}-help`, for aria-describedby. */
  help?: string;
  children: ReactNode;
  className?: string;
}

/** A labelled control with its save status beside the label, and its help and error lines under it. */
export function EditorField({ label, htmlFor, error, status, help, children, className }: EditorFieldProps) {
  return (
    <div className={`editor-field${className ? ` ${className}` : ''}`}>
      <div className="editor-field-head">
        <label className="editor-field-label" htmlFor={htmlFor}>
          {label}
        </label>
        {status === undefined ? null : <SaveStatus status={status} />}
      </div>
      {children}
      {help ? (
        <p id={`${htmlFor}-help`} className="editor-field-help">
          {help}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
