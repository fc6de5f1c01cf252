import { regexKeys } from '../../contract/lore-keys';
import { t } from '../../i18n/t';

/** The keys SillyTavern will run as regular expressions (issue 39 §7), marked below a proposal; shown as text. */
export function RegexKeysNote({ keys }: { keys: readonly string[] }) {
    const patterns = regexKeys(keys);
    if (patterns.length === 0) return null;
    return (
        <p class="tavern-agent__lore-regex" data-regex-keys={patterns.length}>
            <span class="fa-solid fa-asterisk" aria-hidden="true" /> {t`Regular-expression keys: SillyTavern runs them as patterns on every lore scan.`}{' '}
            {patterns.map((key, i) => (
                <code key={i} class="tavern-agent__code" data-regex-key="">
                    {key}
                </code>
            ))}
        </p>
    );
}

/** Asks once more before a text with regular-expression keys is written; true when there are none or the user agrees. */
export async function confirmRegexKeys(keys: readonly string[], confirm: (question: string) => Promise<boolean>): Promise<boolean> {
    const patterns = regexKeys(keys);
    if (patterns.length === 0) return true;
    const question = t`These keys are regular expressions: SillyTavern runs each of them against the chat on every lore scan, and a badly written one can slow every message down. Write the entry with them?`;
    return confirm(`${question} ${patterns.join('   ')}`);
}
