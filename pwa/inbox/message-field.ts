import { html } from 'lit';

/** What a card's message field shows and whom it tells of each keystroke. */
export interface MessageFieldOptions {
  label: string;
  placeholder: string;
  maxLength: number;
  value: string;
  disabled: boolean;
  onInput: (value: string) => void;
}

/** A one-line field whose words go to Claude, in a form whose submit (Enter) sends them. */
export function messageField(o: MessageFieldOptions) {
  return html`<input
    aria-label=${o.label}
    placeholder=${o.placeholder}
    maxlength=${o.maxLength}
    enterkeyhint="send"
    autocomplete="off"
    .value=${o.value}
    ?disabled=${o.disabled}
    @input=${(e: Event) => o.onInput((e.target as HTMLInputElement).value)}
  />`;
}
