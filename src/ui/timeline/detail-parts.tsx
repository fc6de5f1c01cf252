import type { ComponentChildren } from 'preact';
import { t } from '../../i18n/t';
import { copyText } from './run-actions';
import type { Loaded } from './use-run-data';

/** The pieces an opened row is made of: facts, labelled text blocks, a copy button. Text is shown, never parsed as HTML. */

export function Facts({ items }: { items: Array<[string, ComponentChildren]> }) {
    const shown = items.filter(([, value]) => value !== '' && value !== null && value !== undefined);
    return (
        <dl class="tavern-agent__facts">
            {shown.map(([label, value]) => (
                <div key={label}>
                    <dt>{label}</dt>
                    <dd>{value}</dd>
                </div>
            ))}
        </dl>
    );
}

/** A labelled block of text: given, or loaded from the run (loading and failure said in its place). */
export function Block({ label, text, loaded, testId }: { label: string; text?: string; loaded?: Loaded<string> | null; testId?: string }) {
    let body: ComponentChildren;
    if (text !== undefined) body = <pre class="tavern-agent__text">{text}</pre>;
    else if (!loaded || loaded.state === 'loading') body = <p class="tavern-agent__muted">{t`Loading…`}</p>;
    else if (loaded.state === 'error') body = <p class="tavern-agent__error">{loaded.message}</p>;
    else body = <pre class="tavern-agent__text">{loaded.value}</pre>;
    return (
        <section class="tavern-agent__block" aria-label={label} data-testid={testId}>
            <h5>{label}</h5>
            {body}
        </section>
    );
}

export function CopyButton({ text }: { text: () => string }) {
    return (
        <button type="button" class="menu_button tavern-agent__button" data-action="copy" onClick={() => void copyText(text())}>
            <span class="fa-solid fa-copy" aria-hidden="true" /> {t`Copy`}
        </button>
    );
}
