import { useSignal } from '@preact/signals';
import { useRef } from 'preact/hooks';
import type { PanelSettings } from '../contract/panel-settings';
import { t } from '../i18n/t';
import { ProfilesSection } from './profiles/profile-editor';
import { ProfilePicker } from './profiles/profile-picker';
import { PipelineEditor } from './profiles/pipeline-editor';
import { ResizeHandle } from './resize-handle';
import { RunView } from './run-view';
import { GuidanceInput } from './guidance-input';
import { services } from './services';
import { isRunGoing, liveRunId, viewedRun } from './timeline/run-store';
import { SkillsSection } from './skills/skills-section';
import { ErrorBoundary } from './error-boundary';
import { StorageSection } from './storage/storage-section';
import { MemorySection } from './memory/memory-section';
import { chatStatus, engineState, panelOpen, panelSettingsState, savingAgentMode } from './state';

export interface PanelActions {
    setAgentMode(enabled: boolean): void;
    stopRun(): void;
    close(): void;
    /** Saves a change of the panel's settings (its dragged width); optional so older wirings still build. */
    updateSettings?(change: Partial<PanelSettings>): void;
}

function EngineLine() {
    const state = engineState.value;
    switch (state.phase) {
        case 'idle':
        case 'starting':
            return <span class="tavern-agent__muted">{t`Engine starting…`}</span>;
        case 'ready':
            return (
                <span class="tavern-agent__muted" data-engine="ready">
                    {t`Engine ready`} · v{state.health.engineVersion}
                </span>
            );
        case 'error':
            return (
                <span class="tavern-agent__error" role="alert" data-engine="error">
                    {t`Engine failed to start:`} {state.message}
                </span>
            );
    }
}

/** Stop for a keeper shown in the timeline while it works in the background (the chat's own run has the Stop above). */
function StopShownKeeper() {
    const runId = viewedRun.value?.model.runId;
    const stop = services().chat.stopBackground;
    if (!runId || !stop || runId === liveRunId.value || !isRunGoing(runId)) return null;
    return (
        <button type="button" class="menu_button tavern-agent__stop" data-stop="background" onClick={() => void stop(runId)}>
            <span class="fa-solid fa-stop" aria-hidden="true" /> {t`Stop`}
        </button>
    );
}

function AgentModeSwitch({ actions }: { actions: PanelActions }) {
    const status = chatStatus.value;
    const noChat = status.chatId === null;
    return (
        <div class="tavern-agent__section">
            <label class="tavern-agent__switch">
                <input
                    id="tavern_agent_mode_switch"
                    type="checkbox"
                    role="switch"
                    checked={status.enabled}
                    disabled={noChat || savingAgentMode.value}
                    onChange={(event) => actions.setAgentMode(event.currentTarget.checked)}
                />
                <span class="tavern-agent__switch-track" aria-hidden="true" />
                <span class="tavern-agent__switch-label">{t`Agent Mode`}</span>
            </label>
            <p class="tavern-agent__hint">
                {noChat
                    ? t`Open a chat to use Agent Mode.`
                    : status.enabled
                      ? t`On for this chat: Send runs the agent, which drafts in its workspace and commits one reply.`
                      : t`Off for this chat: SillyTavern generates replies as usual.`}
            </p>
            {noChat ? null : <ProfilePicker />}
            {noChat ? null : (
                <ErrorBoundary label={t`the pipeline`}>
                    <PipelineEditor />
                </ErrorBoundary>
            )}
        </div>
    );
}

/** The Skills section, when src/runtime.ts wired a skill service. */
function SkillsPart() {
    const { skills, skillOwners } = services();
    return skills ? <SkillsSection service={skills} {...(skillOwners ? { owners: skillOwners } : {})} /> : null;
}

export function Panel({ actions }: { actions: PanelActions }) {
    const element = useRef<HTMLElement>(null);
    /** The width while the edge is dragged (the saved one takes over when the drag ends). */
    const dragged = useSignal<number | null>(null);
    if (!panelOpen.value) return null;
    const status = chatStatus.value;
    const width = dragged.value ?? panelSettingsState.value.panelWidth;
    return (
        <aside
            ref={element}
            class="tavern-agent"
            aria-label={t`Tavern Agent`}
            data-agent-mode={status.enabled ? 'on' : 'off'}
            data-width={width ?? 'auto'}
            style={width === null ? undefined : { '--tavern-agent-width': `${width}px` }}
        >
            <ResizeHandle
                panel={() => element.current}
                width={width}
                onDrag={(next) => (dragged.value = next)}
                onCommit={(next) => {
                    panelSettingsState.value = { ...panelSettingsState.value, panelWidth: next };
                    dragged.value = null;
                    actions.updateSettings?.({ panelWidth: next });
                }}
            />
            <header class="tavern-agent__header">
                <span class="fa-solid fa-robot" aria-hidden="true" />
                <h3 class="tavern-agent__title">{t`Tavern Agent`}</h3>
                <button
                    type="button"
                    class="tavern-agent__icon-button fa-solid fa-xmark"
                    title={t`Close`}
                    aria-label={t`Close`}
                    onClick={actions.close}
                />
            </header>
            {/* The panel's one scroll container: header and edge stay, everything else scrolls here. */}
            <div class="tavern-agent__scroll">
                <AgentModeSwitch actions={actions} />
                <section class="tavern-agent__section tavern-agent__runs" aria-live="polite">
                    <div class="tavern-agent__runs-header">
                        <h4>{t`Runs`}</h4>
                        {status.run ? (
                            <button type="button" class="menu_button tavern-agent__stop" onClick={actions.stopRun}>
                                <span class="fa-solid fa-stop" aria-hidden="true" /> {t`Stop`}
                            </button>
                        ) : (
                            <StopShownKeeper />
                        )}
                    </div>
                    {status.run ? <GuidanceInput /> : null}
                    <ErrorBoundary label={t`the run timeline`}>
                        <RunView />
                    </ErrorBoundary>
                </section>
                <ErrorBoundary label={t`the Memory section`}>
                    <MemorySection />
                </ErrorBoundary>
                <ErrorBoundary label={t`the Profiles section`}>
                    <ProfilesSection />
                </ErrorBoundary>
                <ErrorBoundary label={t`the Skills section`}>
                    <SkillsPart />
                </ErrorBoundary>
                <ErrorBoundary label={t`the Storage section`}>
                    <StorageSection />
                </ErrorBoundary>
                <footer class="tavern-agent__footer">
                    <EngineLine />
                </footer>
            </div>
        </aside>
    );
}
