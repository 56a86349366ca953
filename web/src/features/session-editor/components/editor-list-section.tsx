import type { ReactNode } from 'react';
import { Icon } from '../../../components/ui/icon';
import { addItemText, emptyListText, loadingListText } from '../../../i18n/en/editor';

interface EditorListSectionProps {
  /** Heading, e.g. 'Actions'; the add button reads 'Add <noun>'. */
  title: string;
  noun: string;
  onAdd: () => void;
  adding: boolean;
  loading: boolean;
  /** The list, or null when it is empty. */
  children: ReactNode | null;
}

/** A list of the editor (actions, prompts): heading, add button, and the list or its empty state. */
export function EditorListSection({ title, noun, onAdd, adding, loading, children }: EditorListSectionProps) {
  const headingId = `editor-${title.toLowerCase()}-heading`;
  return (
    <section className="editor-section" aria-labelledby={headingId}>
      <div className="editor-section-header">
        <h3 id={headingId}>{title}</h3>
        <button type="button" className="button secondary editor-add" disabled={adding} onClick={onAdd}>
          <Icon name="add" /> {addItemText(noun)}
        </button>
      </div>
      {children ?? <p className="editor-empty">{loading ? loadingListText(title) : emptyListText(title)}</p>}
    </section>
  );
}
