import type { JournalEvent } from '../contract/records';
import { t } from '../host/i18n';
import { liveRun } from './state';

function describe(event: JournalEvent): { icon: string; title: string; detail: string; tone: 'info' | 'ok' | 'error' } {
    const p = event.payload as Record<string, unknown>;
    switch (event.type) {
        case 'run-state':
            return { icon: 'fa-flag', title: t`State`, detail: String(p.to), tone: 'info' };
        case 'model-request':
            return { icon: 'fa-paper-plane', title: t`Model call`, detail: `#${p.round}${p.wrapUp ? ' · wrap-up' : ''}`, tone: 'info' };
        case 'model-response': {
            const calls = (p.toolCalls as Array<{ name: string }>).map((c) => c.name).join(', ');
            const text = String(p.text ?? '').slice(0, 140);
            return { icon: 'fa-comment-dots', title: t`Model answered`, detail: [text, calls, `${p.durationMs} ms`].filter(Boolean).join(' · '), tone: 'info' };
        }
        case 'model-retry':
            return { icon: 'fa-rotate', title: t`Retrying model call`, detail: `${p.message} (${p.delayMs} ms)`, tone: 'error' };
        case 'model-reminder':
            return { icon: 'fa-bell', title: t`Reminded to use tools`, detail: String(p.savedTo), tone: 'error' };
        case 'tool-call-start':
            return { icon: 'fa-wrench', title: String(p.canonical ?? p.name), detail: t`running…`, tone: 'info' };
        case 'tool-call-complete':
            return { icon: 'fa-check', title: String(p.name), detail: `${String(p.summary).split('\n')[0]} · ${p.durationMs} ms`, tone: 'ok' };
        case 'tool-call-fail':
            return { icon: 'fa-triangle-exclamation', title: String(p.name), detail: `${p.code}: ${p.message}`, tone: 'error' };
        case 'file-write':
            return { icon: 'fa-file-pen', title: t`File written`, detail: `${p.path} (${p.mode}, v${p.version})`, tone: 'info' };
        case 'patch-apply':
            return { icon: 'fa-code-compare', title: t`Patch applied`, detail: `${p.path} (v${p.version})`, tone: 'info' };
        case 'checkpoint':
            return { icon: 'fa-bookmark', title: t`Checkpoint`, detail: `${p.path} v${p.version}`, tone: 'info' };
        case 'commit':
            return { icon: 'fa-message', title: t`Committed to chat`, detail: `${p.path} → #${p.messageId} (${p.mode})`, tone: 'ok' };
        case 'budget-wrap-up':
            return { icon: 'fa-hourglass-end', title: t`Budget used up`, detail: String(p.reason), tone: 'error' };
        case 'run-finish':
            return { icon: 'fa-flag-checkered', title: t`Finished`, detail: String(p.reason ?? ''), tone: 'ok' };
        case 'run-fail':
            return { icon: 'fa-circle-xmark', title: t`Failed`, detail: `${p.code}: ${p.message}`, tone: 'error' };
        case 'run-cancel':
            return { icon: 'fa-ban', title: t`Stopped`, detail: String(p.reason), tone: 'error' };
        default:
            return { icon: 'fa-circle', title: event.type, detail: '', tone: 'info' };
    }
}

/** Events too fine-grained for the live list; they stay in the journal. */
const QUIET_EVENTS = new Set(['run-create', 'run-state', 'checkpoint', 'persist-promote', 'model-request']);

export function RunView() {
    const run = liveRun.value;
    if (!run) return <p class="tavern-agent__muted">{t`No run in this chat yet.`}</p>;
    // A tool call is one row: its start event shows until the call completes or fails.
    const ended = new Set(
        run.events
            .filter((event) => event.type === 'tool-call-complete' || event.type === 'tool-call-fail')
            .map((event) => (event.payload as { callId: string }).callId),
    );
    const rows = run.events.filter(
        (event) =>
            !QUIET_EVENTS.has(event.type) &&
            !(event.type === 'tool-call-start' && ended.has((event.payload as { callId: string }).callId)),
    );
    return (
        <div class="tavern-agent__run" data-run-id={run.runId} data-run-state={run.state}>
            <p class="tavern-agent__run-header">
                <span class={`tavern-agent__badge tavern-agent__badge--${run.state}`}>{run.state}</span>{' '}
                <span class="tavern-agent__muted">{run.generationType}</span>
            </p>
            {run.error ? (
                <p class="tavern-agent__error" role="alert">
                    {run.error.message} <code>{run.error.code}</code>
                </p>
            ) : null}
            <ol class="tavern-agent__events">
                {rows.map((event) => {
                    const row = describe(event);
                    return (
                        <li key={event.seq} class={`tavern-agent__event tavern-agent__event--${row.tone}`} data-event-type={event.type}>
                            <span class={`fa-solid ${row.icon} fa-fw`} aria-hidden="true" />
                            <span class="tavern-agent__event-title">{row.title}</span>
                            <span class="tavern-agent__event-detail">{row.detail}</span>
                        </li>
                    );
                })}
            </ol>
        </div>
    );
}
