import { signal } from '@preact/signals';
import type { ModelStreamDelta } from '../../contract/model-stream';
import type { JournalEvent } from '../../contract/events';
import { t } from '../../i18n/t';

/**
 * Streamed model calls still in flight, by run and request id (`<run>|root:3`, `<run>|task-1:2`): transient,
 * never journaled. Keyed by run too, for a keeper may stream beside the chat's run (issue 34).
 */
export const streamingTurns = signal<ReadonlyMap<string, ModelStreamDelta>>(new Map());

/** Requests whose response is journaled: a late delta of theirs must not bring the partial turn back. */
const settled = new Set<string>();
/** Deltas waiting for the next frame: a fast stream redraws once per frame, not once per piece. */
let waiting = new Map<string, ModelStreamDelta>();
let frame = 0;

function flush(): void {
    frame = 0;
    const batch = waiting;
    waiting = new Map();
    const next = new Map(streamingTurns.value);
    for (const [key, delta] of batch) if (!settled.has(key)) next.set(key, delta);
    streamingTurns.value = next;
}

export function showModelDelta(delta: ModelStreamDelta): void {
    waiting.set(`${delta.runId}|${delta.requestId}`, delta);
    if (!frame) frame = requestAnimationFrame(flush);
}

/** The journaled response replaces its stream: drop the partial turns these events complete. */
export function settleModelDeltas(events: readonly JournalEvent[]): void {
    const done = events.flatMap((event) => {
        if (event.type !== 'model-response') return [];
        const key = `${event.runId}|${event.payload.taskId ?? 'root'}:${event.payload.round}`;
        settled.add(key);
        return [key];
    });
    if (done.length === 0 || streamingTurns.value.size === 0) return;
    const next = new Map(streamingTurns.value);
    for (const key of done) next.delete(key);
    streamingTurns.value = next;
}

/** A run started or ended: none of its partial turns stays (the other runs' streams go on). */
export function clearModelDeltas(runId: string): void {
    const prefix = `${runId}|`;
    const ofRun = (key: string) => key.startsWith(prefix);
    for (const key of [...waiting.keys()]) if (ofRun(key)) waiting.delete(key);
    for (const key of [...settled]) if (ofRun(key)) settled.delete(key);
    const shown = [...streamingTurns.value.keys()].filter(ofRun);
    if (shown.length === 0) return;
    const next = new Map(streamingTurns.value);
    for (const key of shown) next.delete(key);
    streamingTurns.value = next;
}

/**
 * A model turn as it streams in: its text, reasoning and tool-call arguments so far, below the run's rows
 * until the complete response is journaled and drawn as a row. Shown as text, never as HTML.
 */
export function StreamingTurns({ runId }: { runId: string }) {
    const turns = [...streamingTurns.value.values()].filter((delta) => delta.runId === runId);
    if (turns.length === 0) return null;
    return (
        <div class="tavern-agent__streaming" aria-live="off">
            {turns.map((delta) => (
                <div class="tavern-agent__streaming-turn" data-testid="streaming-turn" data-request-id={delta.requestId} key={delta.requestId}>
                    <p class="tavern-agent__muted">
                        <span class="fa-solid fa-ellipsis fa-fade fa-fw" aria-hidden="true" /> {t`Model turn streaming`} ({delta.requestId})
                    </p>
                    {delta.reasoning ? <pre class="tavern-agent__streaming-reasoning" data-testid="streaming-reasoning">{delta.reasoning}</pre> : null}
                    {delta.text ? <pre class="tavern-agent__streaming-text" data-testid="streaming-text">{delta.text}</pre> : null}
                    {delta.toolCalls.map((call, index) => (
                        <pre class="tavern-agent__streaming-call" data-testid="streaming-call" key={index}>{`${call.name}(${call.arguments})`}</pre>
                    ))}
                </div>
            ))}
        </div>
    );
}
