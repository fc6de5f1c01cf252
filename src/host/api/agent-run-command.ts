import { t } from '../../i18n/t';
import { toasts } from '../sillytavern/toasts';
import type { RunApi } from './run-api';

/** Where a background scripted run leaves its answer (the engine tells the model so: engine/script-run.ts). */
const SUMMARY_PATH = 'summaries/summary.md';

/**
 * `/agent run <prompt>`: a background run of the chat's profile, awaited; its summary goes to the pipe. The
 * summary is summaries/summary.md, else the last file the run wrote under summaries/; a failed run returns
 * nothing and says why.
 */
export async function agentRunCommand(api: RunApi, prompt: string): Promise<string> {
    if (!prompt.trim()) {
        toasts.warning(t`Give /agent run a prompt, e.g. /agent run Summarize the story so far.`);
        return '';
    }
    let runId: string;
    try {
        runId = await api.run({ prompt, background: true });
    } catch (error) {
        toasts.warning(error instanceof Error ? error.message : String(error));
        return '';
    }
    const outcome = await api.outcome(runId);
    if (!outcome || outcome.state !== 'completed') return '';
    const files = await api.files(runId).catch(() => [] as string[]);
    const summaries = files.filter((path) => path.startsWith('summaries/'));
    const path = summaries.includes(SUMMARY_PATH) ? SUMMARY_PATH : summaries.at(-1);
    if (!path) return '';
    return api.readFile(runId, path).catch(() => '');
}
