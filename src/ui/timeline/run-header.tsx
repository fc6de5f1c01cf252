import { useMemo, useState } from 'preact/hooks';
import { failureText } from '../../i18n/failure-text';
import { t } from '../../i18n/t';
import { chatRevision, chatStatus } from '../state';
import { scopeLabel } from '../skills/skill-scope';
import { stateLabel } from '../../i18n/state-label';
import { formatCost, formatCount, formatDuration, formatTime, generationLabel, shortId } from './format';
import { END_STATES, type RunSummary } from './rows';
import { commitDraftText, continueRunFromPanel, exportRunFile, isRunChatOpen, jumpToMessage, resumeInterruptedRun, retryRefusal, retryRun } from './run-actions';
import { latestLiveRun, liveRunId, showLive, type RunSource } from './run-store';
import { taskCountsText } from './task-status';
import { useElapsed } from './use-now';
import { PhaseBadge, recordOf, shownPhase, turnOf } from './turn-view';

const DRAFT_PREFERENCE = ['output/direct_output.md', 'output/main.md'];

/** The draft worth committing after a failure: the model's plain text, the main draft, or any output file. */
function draftPath(summary: RunSummary): string | null {
    return DRAFT_PREFERENCE.find((path) => summary.outputPaths.includes(path)) ?? summary.outputPaths[0] ?? null;
}

/** The skill set the run froze at its start: name and scope, the hash on hover (it names the exact content). */
function RunSkills({ skills }: { skills: NonNullable<RunSummary['skills']> }) {
    return (
        <details class="tavern-agent__run-skills" data-testid="run-skills">
            <summary>
                {t`Skills`} ({skills.length})
            </summary>
            {skills.length ? (
                <ul>
                    {skills.map((skill) => (
                        <li data-skill={skill.name} title={skill.hash}>
                            <code class="tavern-agent__code">{skill.name}</code> <span class="tavern-agent__muted">{scopeLabel(skill.scope, null)}</span>
                        </li>
                    ))}
                </ul>
            ) : (
                <p class="tavern-agent__muted">{t`No skill was visible to this run.`}</p>
            )}
        </details>
    );
}

/** A run that ended on its budget (issue 38 §5): it failed with run.budget_exhausted, or its wrap-up turn committed. */
function continuable(summary: RunSummary): boolean {
    if (!summary.wrappedUp && summary.error?.code !== 'run.budget_exhausted') return false;
    return (summary.state === 'completed' && summary.messageId !== null) || (summary.state === 'failed' && summary.error?.code === 'run.budget_exhausted');
}

/** *Continue with N more rounds*: N starts at the profile's round budget (at most 200). */
function ContinueControl({ summary }: { summary: RunSummary }) {
    const [rounds, setRounds] = useState(() => Math.min(200, summary.roundBudget ?? 80));
    const valid = Number.isInteger(rounds) && rounds >= 1 && rounds <= 200;
    return (
        <span class="tavern-agent__continue" data-testid="run-continue">
            <button type="button" class="menu_button tavern-agent__button" data-action="continue" disabled={!valid} onClick={() => void continueRunFromPanel(summary, rounds)}>
                <span class="fa-solid fa-forward" aria-hidden="true" /> {t`Continue with`} {rounds} {t`more rounds`}
            </button>
            <input
                type="number"
                class="text_pole tavern-agent__continue-rounds"
                min={1}
                max={200}
                value={rounds}
                aria-label={t`More rounds`}
                onInput={(event) => setRounds(Math.floor(Number(event.currentTarget.value)))}
            />
        </span>
    );
}

function Stat({ icon, label, value, name, raw }: { icon: string; label: string; value: string; name: string; raw?: string }) {
    return (
        <span class="tavern-agent__stat" title={label} data-stat={name} data-value={raw}>
            <span class={`fa-solid ${icon} fa-fw`} aria-hidden="true" />
            <span class="tavern-agent__visually-hidden">{label}: </span>
            {value}
        </span>
    );
}

export function RunHeader({ summary, source }: { summary: RunSummary; source: RunSource }) {
    const ended = END_STATES.has(summary.state);
    const elapsed = useElapsed(summary.runId, summary.startedAt, summary.endedAt ?? summary.lastAt, !ended);
    const imported = source === 'imported';
    // Asked of SillyTavern once per chat, not on each render (a live run renders the header for each batch of events).
    const openChatId = chatStatus.value.chatId;
    const chatOpen = useMemo(() => !imported && isRunChatOpen(summary), [imported, summary.chatKey, summary.chatId, openChatId]);
    // Read so the header follows the chat: a new message, a deletion or a swipe changes what Retry can do.
    void chatRevision.value;
    const retryBlocked = ended && chatOpen ? retryRefusal(summary) : null;
    const draft = draftPath(summary);
    const canCommitDraft = chatOpen && draft !== null && ['failed', 'cancelled', 'interrupted'].includes(summary.state);
    const live = latestLiveRun();
    const otherLive = live !== null && live.model.runId !== summary.runId && liveRunId.value !== null;
    const messageId = summary.messageId;
    const phase = shownPhase(recordOf(summary.runId), turnOf(summary.runId));
    return (
        <div class="tavern-agent__run-header">
            {/* One line: what the run is and its figures; the least needed parts give way first when narrow. */}
            <div class="tavern-agent__run-line">
                <span class="tavern-agent__run-status">
                    <span class={`tavern-agent__badge tavern-agent__badge--${summary.state}`} role="status">
                        {stateLabel(summary.state)}
                    </span>
                    {phase ? <PhaseBadge phase={phase} /> : null}
                    {imported ? <span class="tavern-agent__badge">{t`imported, read-only`}</span> : null}
                    <span class="tavern-agent__muted tavern-agent__run-kind">{generationLabel(summary.generationType)}</span>
                    {summary.profileId ? <code class="tavern-agent__code tavern-agent__run-profile">{summary.profileId}</code> : null}
                </span>
                <span class="tavern-agent__run-stats">
                    <Stat name="elapsed" icon="fa-stopwatch" label={t`Elapsed`} value={formatDuration(elapsed) || '0 ms'} />
                    <Stat name="tokens-in" icon="fa-arrow-up" label={t`Tokens sent`} value={formatCount(summary.tokensIn)} />
                    <Stat name="tokens-out" icon="fa-arrow-down" label={t`Tokens received`} value={formatCount(summary.tokensOut)} />
                    {summary.cost !== null ? <Stat name="cost" icon="fa-coins" label={t`Cost`} value={formatCost(summary.cost)} raw={String(summary.cost)} /> : null}
                    <Stat name="rounds" icon="fa-comments" label={t`Model turns`} value={String(summary.rounds)} />
                    <Stat name="calls" icon="fa-wrench" label={t`Tool calls`} value={summary.failedCalls ? `${summary.calls} (${summary.failedCalls} ✕)` : String(summary.calls)} />
                </span>
                <span class="tavern-agent__muted tavern-agent__run-id" title={`${summary.runId}${summary.startedAt ? ` · ${formatTime(summary.startedAt)}` : ''}`}>
                    #{shortId(summary.runId)}
                </span>
            </div>
            {taskCountsText(summary) ? (
                <p class="tavern-agent__task-counts" data-testid="task-counts">
                    <span class="fa-solid fa-people-arrows fa-fw" aria-hidden="true" /> {t`Sub-agents:`} {taskCountsText(summary)}
                </p>
            ) : null}
            {summary.error ? (
                <p class="tavern-agent__error" role="alert">
                    {failureText(summary.error)} <code class="tavern-agent__code">{summary.error.code}</code>
                </p>
            ) : null}
            <div class="tavern-agent__toolbar" role="toolbar" aria-label={t`Run actions`}>
                {otherLive ? (
                    <button type="button" class="menu_button tavern-agent__button" data-action="show-live" onClick={showLive}>
                        <span class="fa-solid fa-satellite-dish" aria-hidden="true" /> {t`Back to the live run`}
                    </button>
                ) : null}
                {ended && chatOpen ? (
                    <button
                        type="button"
                        class="menu_button tavern-agent__button"
                        data-action="retry"
                        disabled={retryBlocked !== null}
                        title={retryBlocked?.message}
                        onClick={() => void retryRun(summary)}
                    >
                        <span class="fa-solid fa-rotate-right" aria-hidden="true" /> {t`Retry`}
                    </button>
                ) : null}
                {continuable(summary) && chatOpen && !imported ? <ContinueControl summary={summary} /> : null}
                {summary.state === 'interrupted' && chatOpen ? (
                    <button type="button" class="menu_button tavern-agent__button" data-action="resume" onClick={() => void resumeInterruptedRun(summary)}>
                        <span class="fa-solid fa-play" aria-hidden="true" /> {t`Resume`}
                    </button>
                ) : null}
                {canCommitDraft ? (
                    <button
                        type="button"
                        class="menu_button tavern-agent__button"
                        data-action="commit-draft"
                        title={draft!}
                        onClick={() => void commitDraftText(summary, draft!)}
                    >
                        <span class="fa-solid fa-message" aria-hidden="true" /> {t`Commit this text`}
                    </button>
                ) : null}
                {messageId !== null && !imported ? (
                    <button type="button" class="menu_button tavern-agent__button" data-action="jump" disabled={!chatOpen} onClick={() => jumpToMessage(summary, messageId)}>
                        <span class="fa-solid fa-arrow-right" aria-hidden="true" /> {t`Go to the message`} #{messageId}
                    </button>
                ) : null}
                {ended ? (
                    <button type="button" class="menu_button tavern-agent__button" data-action="export" onClick={() => void exportRunFile(summary.runId)}>
                        <span class="fa-solid fa-file-export" aria-hidden="true" /> {t`Export`}
                    </button>
                ) : null}
                {/* Last in the toolbar row (it takes the whole row when opened): one line less in the header. */}
                {summary.skills ? <RunSkills skills={summary.skills} /> : null}
            </div>
        </div>
    );
}
