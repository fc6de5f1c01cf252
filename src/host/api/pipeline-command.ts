import type { Pipeline } from '../../contract/agent-mode';
import { parsePipelineWords } from '../../contract/pipeline-change';
import { t } from '../../i18n/t';
import { setChatPipeline } from '../pipeline/pipeline-settings';
import { chatPipeline } from '../settings/agent-mode';
import { toasts } from '../sillytavern/toasts';

/**
 * `/agent pipeline` answers the open chat's pipeline as JSON; `/agent pipeline before=<id|none>
 * reply=<agent|sillytavern> after=<id,id…|none>` sets any part of it and answers the new one. A refused
 * change answers '' and says why in a toast, with its code; nothing is changed.
 */
export async function pipelineCommand(text: string): Promise<string> {
    if (!text.trim()) return JSON.stringify(chatPipeline());
    const change = parsePipelineWords(text);
    const result = change.ok ? await setChatPipeline(change.value) : change;
    if (!result.ok) {
        toasts.warning(`${result.error.message} (${result.error.code})`, t`Pipeline not changed`);
        return '';
    }
    return JSON.stringify(result.value);
}

/** A pipeline in words, for the toast `/agent pipeline` shows when typed alone. */
export function describePipeline(pipeline: Pipeline): string {
    const before = pipeline.before ?? t`nobody`;
    const reply = pipeline.reply === 'agent' ? t`the chat's agent` : t`SillyTavern`;
    const after = pipeline.after.length ? pipeline.after.join(', ') : t`nobody`;
    return `${t`Before the reply:`} ${before}. ${t`Reply:`} ${reply}. ${t`After the reply:`} ${after}.`;
}
