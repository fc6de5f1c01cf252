import { useEffect, useState } from 'preact/hooks';
import type { SkillScriptFile } from '../../contract/skills';
import type { SkillsService } from '../../contract/skills-service';
import { t } from '../../i18n/t';
import { errorText, formatBytes, isRunnableScript } from './skill-scope';

/**
 * A skill's scripts (issue 35): each file under `scripts/` with its size, and the profiles that may run them
 * (they see the skill and their Scripts setting is not off), asked when the skill is opened, since profiles
 * change between opens. Paths come from the skill: shown as text.
 */
export function SkillScripts({ service, name, scripts }: { service: SkillsService; name: string; scripts: readonly SkillScriptFile[] }) {
    const [runners, setRunners] = useState<string[] | null>(null);
    const [failure, setFailure] = useState<string | null>(null);
    useEffect(() => {
        let live = true;
        service.scriptRunners(name).then(
            (value) => live && setRunners(value),
            (error: unknown) => live && setFailure(errorText(error)),
        );
        return () => {
            live = false;
        };
    }, [service, name]);
    if (!scripts.length) return null;
    // Only JavaScript modules ever run: a skill with none has no one to name.
    const runnable = scripts.some((script) => isRunnableScript(script.path));
    return (
        <section class="tavern-agent__skill-scripts" data-testid="skill-scripts" aria-label={t`Scripts`}>
            <h6>{t`Scripts`}</h6>
            <ul class="tavern-agent__skill-script-list">
                {scripts.map((script) => (
                    <li data-testid="skill-script" data-path={script.path}>
                        <span class="fa-solid fa-scroll fa-fw" aria-hidden="true" /> <span class="tavern-agent__mono">{script.path}</span>{' '}
                        <span class="tavern-agent__muted" data-testid="skill-script-size">
                            {formatBytes(script.bytes)}
                        </span>
                        {isRunnableScript(script.path) ? null : <span class="tavern-agent__muted"> · {t`not JavaScript: never run`}</span>}
                    </li>
                ))}
            </ul>
            {!runnable ? null : failure ? (
                <p class="tavern-agent__error">{failure}</p>
            ) : (
                <p class="tavern-agent__skill-seen" data-testid="skill-script-runners">
                    <span class="tavern-agent__muted">{t`Profiles that may run them:`}</span>{' '}
                    {runners === null ? t`Loading…` : runners.length ? runners.map((id) => <code class="tavern-agent__code">{id}</code>) : t`none (a profile runs them when it sees this skill and its Scripts setting is not off)`}
                </p>
            )}
        </section>
    );
}
