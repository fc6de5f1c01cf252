import { t } from '../i18n/t';
import { liveProgress } from './timeline/run-store';
import { chatStatus, savingAgentMode } from './state';

/** The run's progress in a few words: its model turn and the tool running now. */
export function progressText(progress: { round: number; tool: string | null; waiting: boolean } | null): string {
    if (!progress || progress.round === 0) return t`Agent preparing…`;
    const round = `${t`Turn`} ${progress.round}`;
    if (progress.tool) return `${round} · ${progress.tool}`;
    return progress.waiting ? `${round} · ${t`thinking…`}` : round;
}

/**
 * The Agent Mode badge beside SillyTavern's Send button (rendered into a div of #rightSendForm, so it takes
 * SillyTavern's own size and hover there): where the user presses Send, it shows whether Send runs the
 * agent, switches it on click, and while a run works shows its turn and current tool above the send form.
 */
export function SendIndicator({ setAgentMode }: { setAgentMode(enabled: boolean): void }) {
    const status = chatStatus.value;
    const running = status.run !== null;
    const label = status.enabled ? t`Agent Mode is on: Send runs the agent. Click to turn it off.` : t`Agent Mode is off: Send generates as usual. Click to turn it on.`;
    return (
        <>
            <span
                class={`fa-solid fa-robot tavern-agent-send__icon${running ? ' tavern-agent-send__icon--running' : ''}`}
                role="switch"
                aria-checked={status.enabled}
                aria-label={label}
                title={label}
                tabIndex={0}
                onClick={() => {
                    if (!savingAgentMode.value && !running) setAgentMode(!status.enabled);
                }}
                onKeyDown={(event) => {
                    if ((event.key === 'Enter' || event.key === ' ') && !savingAgentMode.value && !running) {
                        event.preventDefault();
                        setAgentMode(!status.enabled);
                    }
                }}
            />
            {status.enabled ? <span class="tavern-agent-send__badge" aria-hidden="true">{t`Agent`}</span> : null}
            {running ? (
                <span class="tavern-agent-send__progress" role="status" data-testid="send-progress">
                    <span class="fa-solid fa-spinner fa-spin" aria-hidden="true" /> {progressText(liveProgress.value)}
                </span>
            ) : null}
        </>
    );
}
