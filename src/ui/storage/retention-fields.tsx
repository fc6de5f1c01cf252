import { useRef, useState } from 'preact/hooks';
import type { RetentionPolicy } from '../../contract/storage';
import { t } from '../../i18n/t';
import { services } from '../services';

/**
 * How many runs a chat keeps (SPEC: 20 in full, 100 as summaries by default), edited where the user looks:
 * the panel's Storage section and the Extensions drawer block. Saved for this SillyTavern user and sent to
 * the engine, which applies it after each run.
 */
export function RetentionFields({ onError }: { onError?(text: string): void }) {
    const settings = services().storage;
    const [policy, setPolicy] = useState<RetentionPolicy | null>(settings?.retention() ?? null);
    const saves = useRef(0);
    if (!policy) return null;

    const save = async (next: RetentionPolicy) => {
        setPolicy(next);
        // Quick edits send several policies; their answers may come back in any order: only the last one asked
        // is saved, or an older answer landing last would keep the older policy in the settings.
        const asked = (saves.current += 1);
        const result = await (await services().engine()).setRetention(next);
        if (asked !== saves.current) return;
        if (result.ok) settings?.saveRetention(result.value);
        else onError?.(`${result.error.message} (${result.error.code})`);
    };

    return (
        <div class="tavern-agent__storage-retention">
            <label>
                {t`Runs kept in full per chat`}{' '}
                <input
                    type="number"
                    class="text_pole"
                    min={1}
                    max={1000}
                    value={policy.keepFull}
                    data-testid="storage-keep-full"
                    onChange={(event) => void save({ ...policy, keepFull: Math.max(1, Math.trunc(Number(event.currentTarget.value)) || 1) })}
                />
            </label>
            <label>
                {t`Older runs kept as summaries`}{' '}
                <input
                    type="number"
                    class="text_pole"
                    min={0}
                    max={10000}
                    value={policy.keepSummaries}
                    data-testid="storage-keep-summaries"
                    onChange={(event) => void save({ ...policy, keepSummaries: Math.max(0, Math.trunc(Number(event.currentTarget.value)) || 0) })}
                />
            </label>
            <p class="tavern-agent__hint">{t`After each run, older runs of its chat are kept as summaries (steps only, no files), and runs past both limits are deleted.`}</p>
        </div>
    );
}
