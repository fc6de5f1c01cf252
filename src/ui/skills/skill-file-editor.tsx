import { useState } from 'preact/hooks';
import { t } from '../../i18n/t';
import { errorText } from './skill-scope';

interface SkillFileEditorProps {
    path: string;
    /** The file's text when editing began; what the user types replaces it only on Save. */
    initial: string;
    /** Rejects with the reason the edit was refused (the service's checks); the editor then keeps the text. */
    onSave(text: string): Promise<void>;
    onCancel(): void;
}

/** One text file of a skill in a textarea, with Save and Cancel: nothing typed is lost to a refused save. */
export function SkillFileEditor({ path, initial, onSave, onCancel }: SkillFileEditorProps) {
    const [text, setText] = useState(initial);
    const [busy, setBusy] = useState(false);
    const [failure, setFailure] = useState<string | null>(null);
    const save = async () => {
        setBusy(true);
        setFailure(null);
        try {
            // On success the viewer closes the editor; on failure the text stays for the user to fix.
            await onSave(text);
        } catch (error) {
            setFailure(errorText(error));
            setBusy(false);
        }
    };
    return (
        <div class="tavern-agent__skill-edit" data-testid="skill-file-edit-form">
            <textarea
                class="text_pole tavern-agent__skill-editor"
                data-testid="skill-file-editor"
                aria-label={`${t`Edit`} ${path}`}
                spellcheck={false}
                rows={16}
                value={text}
                readOnly={busy}
                onInput={(event) => setText(event.currentTarget.value)}
            />
            {failure ? (
                <p class="tavern-agent__error" role="alert" data-testid="skill-file-error">
                    {failure}
                </p>
            ) : null}
            <div class="tavern-agent__toolbar">
                <button type="button" class="menu_button tavern-agent__button" data-testid="skill-file-save" disabled={busy} onClick={() => void save()}>
                    <span class="fa-solid fa-floppy-disk" aria-hidden="true" /> {busy ? t`Saving…` : t`Save`}
                </button>
                <button type="button" class="menu_button tavern-agent__button" data-testid="skill-file-cancel" disabled={busy} onClick={onCancel}>
                    <span class="fa-solid fa-xmark" aria-hidden="true" /> {t`Cancel`}
                </button>
            </div>
        </div>
    );
}
