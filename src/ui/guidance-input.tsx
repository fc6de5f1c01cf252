import { useState } from 'preact/hooks';
import { t } from '../i18n/t';
import { services } from './services';

/**
 * Steering a working agent (issue 15.3): the text is queued in the run and reaches the model at its next
 * turn; the timeline shows it queued, then delivered. Shown only while a run of this tab is working.
 */
export function GuidanceInput() {
    const [text, setText] = useState('');
    const [sending, setSending] = useState(false);
    const { guide, toast } = services();
    if (!guide) return null;
    const send = async () => {
        if (!text.trim() || sending) return;
        setSending(true);
        try {
            const result = await guide(text);
            if (result.ok) setText('');
            else toast.warning(result.error.message);
        } finally {
            setSending(false);
        }
    };
    return (
        <form
            class="tavern-agent__guidance"
            onSubmit={(event) => {
                event.preventDefault();
                void send();
            }}
        >
            <input
                id="tavern_agent_guidance"
                class="text_pole"
                type="text"
                value={text}
                maxLength={4000}
                placeholder={t`Guide the agent (read at its next turn)`}
                aria-label={t`Guidance for the running agent`}
                onInput={(event) => setText(event.currentTarget.value)}
            />
            <button type="submit" class="menu_button" id="tavern_agent_guidance_send" disabled={sending || !text.trim()}>
                {t`Guide`}
            </button>
        </form>
    );
}
