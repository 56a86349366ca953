import { SELECT_TEXTS, UI_TEXTS } from '@uis/proto/browser';
import type { Scope } from '@uis/proto';
import { useId, useMemo, useState, type ClipboardEvent } from 'react';
import { components, type InputProps } from 'react-select';
import CreatableSelect from 'react-select/creatable';
import { useApiQuery } from '../../../api/queries';
import {
  isEmailList,
  normalEmail,
  notAddedText,
  parseEmailList,
  scopeChoices,
  scopeOfSelection,
  scopeSelection,
  withEmails,
  type ScopeOption,
} from '../lib/scope-options';
import { inviteText } from '../../../i18n/en/editor';

interface ScopeSelectProps {
  inputId: string;
  /** The id of the text that says who can see the session, read with the input. */
  describedBy?: string;
  value: Scope;
  onChange: (scope: Scope) => void;
}

/** Typing a comma or semicolon ends an address (a space does not: names are searched with spaces). */
const TYPED_SEPARATOR = /[,;]/;

/**
 * Spec section 2: a multi-select of participants, default Everyone, with the spec's select texts.
 * Ours: any e-mail address can be typed (Enter, Tab, a comma) or pasted as a list, whether
 * or not it has an account; saving the session invites the new ones. The directory stays the
 * suggestions; entries that are not addresses are named under the field.
 */
export function ScopeSelect({ inputId, describedBy, value, onChange }: ScopeSelectProps) {
  const directory = useApiQuery('getAllParticipants', {}, { errorText: UI_TEXTS.errorGettingParticipants });
  const participants = useMemo(() => directory.data?.participants ?? [], [directory.data]);
  const options = useMemo(() => scopeChoices(participants), [participants]);
  const selected = useMemo(() => scopeSelection(value, participants), [value, participants]);
  const [input, setInput] = useState('');
  const [notAdded, setNotAdded] = useState<string[]>([]);
  const messageId = useId();
  // react-select describes its input by its own live region; the scope's help is added to that.
  const selectComponents = useMemo(
    () => ({
      Input: (props: InputProps<ScopeOption, true>) => (
        <components.Input
          {...props}
          aria-describedby={[props['aria-describedby'], describedBy].filter(Boolean).join(' ') || undefined}
        />
      ),
    }),
    [describedBy],
  );

  /** Adds every address of `text` to the scope and names what was not one. */
  const addEntries = (text: string) => {
    const { emails, invalid } = parseEmailList(text);
    if (emails.length > 0) onChange(withEmails(value, emails));
    setNotAdded(invalid);
  };

  const onPaste = (event: ClipboardEvent) => {
    const text = event.clipboardData.getData('text');
    if (!isEmailList(text)) return;
    // The whole list at once: a text input would run its lines together.
    event.preventDefault();
    addEntries(`${input} ${text}`);
    setInput('');
  };

  return (
    <div onPasteCapture={onPaste}>
      <CreatableSelect<ScopeOption, true>
        inputId={inputId}
        className="scope-select"
        classNamePrefix="scope-select"
        isMulti
        components={selectComponents}
        options={options}
        value={selected}
        onChange={(selection) => {
          setNotAdded([]);
          onChange(scopeOfSelection(selection, value));
        }}
        inputValue={input}
        onInputChange={(text, { action, prevInputValue }) => {
          if (action === 'input-change' && TYPED_SEPARATOR.test(text)) {
            // What comes before the last separator is done; the rest is still being typed.
            const cut = text.search(/[,;][^,;]*$/);
            addEntries(text.slice(0, cut));
            setInput(text.slice(cut + 1).trimStart());
            return;
          }
          // Leaving the field with an address typed keeps it rather than dropping it silently.
          if (action === 'input-blur' && prevInputValue.trim() !== '') addEntries(prevInputValue);
          setInput(text);
        }}
        isValidNewOption={(text, chosen, choices) => {
          const email = normalEmail(text);
          const known = (option: unknown) => (option as ScopeOption).value === email;
          return email !== null && !chosen.some(known) && !choices.some(known);
        }}
        // The menu's entry for a new address; once picked, the scope shows the address itself.
        getNewOptionData={(text) => {
          const email = normalEmail(text) ?? text.trim();
          return { value: email, label: inviteText(email) };
        }}
        isLoading={directory.isLoading}
        allowCreateWhileLoading
        loadingMessage={() => SELECT_TEXTS.loading}
        noOptionsMessage={() => SELECT_TEXTS.noOptions}
        placeholder={SELECT_TEXTS.placeholder}
        closeMenuOnSelect={false}
        menuPlacement="auto"
        aria-invalid={notAdded.length > 0}
        aria-errormessage={notAdded.length > 0 ? messageId : undefined}
        styles={{
          control: (base, state) => ({
            ...base,
            minHeight: 40,
            borderColor: state.isFocused ? 'var(--color-primary)' : 'var(--color-border)',
            boxShadow: state.isFocused ? '0 0 0 1px var(--color-primary)' : 'none',
            borderRadius: 'var(--radius)',
          }),
          menu: (base) => ({ ...base, zIndex: 20 }),
        }}
      />
      {notAdded.length > 0 ? (
        <p id={messageId} className="field-error" role="alert">
          {notAddedText(notAdded)}
        </p>
      ) : null}
    </div>
  );
}
