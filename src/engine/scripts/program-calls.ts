import type { ToolCallAnswer } from '../../contract/scripts';
import { toolResultText } from '../../contract/tool-result-text';
import type { AgentInvocation } from '../agents/agent';
import { modelFacingText } from '../projection/model-notes';
import { skillCharsOf } from '../../tools/skill/access';

/**
 * The read tools a program (script.run) may call (issue 35): what reads the chat, its memory, the lore, the skills and the
 * workspace, and the dice. Never a write, commit, finish, delegation or another extension's tool.
 */
export const PROGRAM_TOOLS: ReadonlySet<string> = new Set([
    'chat.search',
    'chat.read_messages',
    'memory.search',
    'worldinfo.search',
    'worldinfo.read',
    'worldinfo.read_activated',
    'workspace.list_files',
    'workspace.search_files',
    'workspace.read_file',
    'skill.list',
    'skill.search',
    'skill.read',
    'dice.roll',
]);

/**
 * A program's tools, as the program `programCallId` calls them: the real tool through the agent's dispatcher
 * (its visibility, argument checks and budget), with a read-state of their own (a program's reads are not
 * the agent's, for workspace.apply_patch). Each call is journaled as a `script-call`, which counts it against
 * the agent's budget.
 */
export function programTools(agent: AgentInvocation, programCallId: string): { names: string[]; refused: string[]; call(name: string, args: unknown): Promise<ToolCallAnswer> } {
    const { dispatcher, session, journal } = agent;
    const visible = dispatcher.visibleTools(false);
    const names = visible.filter((tool) => PROGRAM_TOOLS.has(tool.name)).map((tool) => tool.alias);
    const refused = visible.filter((tool) => !PROGRAM_TOOLS.has(tool.name)).map((tool) => tool.alias);
    const reads = agent.workspace.viewFor(agent.workspace.policy, journal);
    let inner = 0;
    return {
        names,
        refused,
        async call(name, args) {
            if (!names.includes(name)) return { ok: false, code: 'tool.not_allowed', message: `A program cannot call ${name}. It may call: ${names.join(', ')}.` };
            const callId = session.nextCallId();
            inner += 1;
            const argsPath = `tool-args/${callId}.json`;
            const resultPath = `tool-results/${callId}.json`;
            const argumentsText = JSON.stringify(args ?? {});
            const started = session.now();
            const prepared = dispatcher.prepare({ id: `${programCallId}-${inner}`, name, argumentsText }, agent.track.loop.wrapUp !== null);
            const outcome = await dispatcher.execute(prepared, { input: agent.input, workspace: reads, run: agent.controls, skills: agent.skills, signal: agent.signal, journal });
            const text = modelFacingText(outcome, resultPath);
            const skillChars = skillCharsOf(outcome);
            void journal.append(
                'script-call',
                {
                    callId,
                    programCallId,
                    name,
                    canonical: prepared.canonical,
                    counted: prepared.counts,
                    durationMs: session.now() - started,
                    summary: text.slice(0, 200),
                    code: outcome.ok ? null : outcome.error.code,
                    argsPath,
                    resultPath,
                    ...(skillChars ? { skillChars } : {}),
                },
                { files: [reads.record(argsPath, argumentsText, 0), reads.record(resultPath, JSON.stringify(outcome), 0)] },
                // Read-only and answered to the program only: it rides with the next write, or with the calls
                // after it (a program's calls come in bursts; a cut re-runs the whole program anyway).
                { defer: true, deferMs: 100 },
            );
            return outcome.ok ? { ok: true, text } : { ok: false, code: outcome.error.code, message: toolResultText(outcome) };
        },
    };
}
