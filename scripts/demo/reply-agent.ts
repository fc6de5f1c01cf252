// The demo's reply agent: the scenario the user's words choose, played one tool turn at a time, each turn
// reading what the earlier ones got back. A scenario whose tool the request does not offer becomes a reply
// that says how to get it.
import type { MockTurn } from '../../tests/harness/mock-model';
import { counterValue, raiseCounter, readCounter } from './chat-counter';
import { extToolCall } from './ext-tool-call';
import { resultOf, type DemoRequest } from './read-request';
import { scenarioFor, type ScenarioId } from './scenarios';
import { call, commitAndFinish, demoNote, line, numberAfter, playSteps, REPLY_PATH, subjectOf, turn, writeReply, type DemoStepBuilder } from './turns';

/** The demo's skill (installed by the demo extension) and its script. */
export const DEMO_SKILL = 'glade-oracle';
export const DEMO_SCRIPT = 'omen';
/** The chat variable the state scenario raises. */
export const TRUST_VARIABLE = 'trust';

const TRY = 'try "delegate", "lore", "roll", "lanterns", "omens", "trust" or "help"';

/** A reply that only says something: write it, then commit and finish. */
function answer(text: string): DemoStepBuilder[] {
    return [() => writeReply(text), () => commitAndFinish('The reply is ready.')];
}

const missing = (request: DemoRequest, what: string): DemoStepBuilder[] =>
    answer(`${line(request, 'tilts her head.', 'I would, but something holds me back.')}\n\n${demoNote(what)}`);

function plainTurn(request: DemoRequest): DemoStepBuilder[] {
    const draft = `${line(request, 'looks up from the herbs she is sorting.', 'You are awake. Good. Sit by the fire, you are safe in the glade.')}\n\n*draft: say what she will do next*`;
    const revised = line(request, 'smiles and sets a cup of warm tea beside you.', 'Drink slowly. When you are ready, tell me what brought you this deep into Eldoria.');
    const plan: DemoStepBuilder[] = request.tools.has('plan_update')
        ? [() => turn('Let me plan first.', call('plan_update', { items: [{ id: 'draft', text: 'Draft the reply', status: 'doing' }, { id: 'revise', text: 'Read it back and revise', status: 'pending' }] }))]
        : [];
    return [
        ...plan,
        () => writeReply(draft),
        () => turn(undefined, call('workspace_read_file', { path: REPLY_PATH })),
        () => turn('Polishing the wording.', call('workspace_apply_patch', { path: REPLY_PATH, old_string: draft, new_string: `${revised}\n\n${demoNote(TRY)}` })),
        () => commitAndFinish('The reply is ready.'),
    ];
}

function delegateTurn(request: DemoRequest): DemoStepBuilder[] {
    if (!request.tools.has('agent_delegate')) return missing(request, 'this profile may not delegate. Pick the Demo or the Writer profile: /agent profile demo');
    const subject = subjectOf(request.ask);
    return [
        () => turn('This needs digging: I will send the researcher.', call('agent_delegate', { agentId: 'researcher', task: { title: `Look up ${subject}`, objective: `Find what the chat and the lore say about "${subject}".`, expectedOutput: { format: 'a few facts with their refs' } } })),
        () => turn(undefined, call('agent_await', { mode: 'allCompleted' })),
        (done) => {
            const found = /Found [^"\n\\]{0,200}/.exec(resultOf(done, 'agent_await'))?.[0] ?? 'The researcher came back empty-handed.';
            return writeReply(`${line(done, 'closes her eyes, listening to the whispers of the forest.', `The forest has told me what it knows of ${subject}. Stay close to the glade; I will keep you safe.`)}\n\n${demoNote(`the researcher's report: ${found} Its notes are in the run's files.`)}`);
        },
        () => commitAndFinish('The reply uses the researcher\'s findings.'),
    ];
}

function loreTurn(request: DemoRequest): DemoStepBuilder[] {
    if (!request.tools.has('worldinfo_propose')) return missing(request, 'this profile may not propose lore. Pick the Demo or the Writer profile: /agent profile demo');
    return [
        () => turn('First, what does the lore already say?', call('worldinfo_search', { query: 'Moonwell glade' })),
        () =>
            turn(
                'The Moonwell is new: I propose it as lore.',
                call('worldinfo_propose', {
                    title: 'The Moonwell',
                    keys: ['Moonwell', 'well'],
                    content: 'A spring of silver water in the heart of the glade. Seraphina draws from it to heal; the Shadowfangs will not come near it.',
                    reason: 'Seraphina showed the Moonwell in this reply: a lasting place of the story.',
                }),
            ),
        () => writeReply(`${line(request, 'leads you to a spring that glows like moonlight.', 'This is the Moonwell. Its water heals, and the Shadowfangs fear it.')}\n\n${demoNote('the panel lists a lore proposal: Accept writes it into this chat\'s lorebook.')}`),
        () => commitAndFinish('The reply shows the Moonwell.'),
    ];
}

function rollTurn(request: DemoRequest): DemoStepBuilder[] {
    if (!request.tools.has('dice_roll')) return missing(request, 'this profile offers no dice. Pick the Demo or the Game Master profile: /agent profile demo');
    return [
        () => turn('An uncertain outcome: let the dice decide.', call('dice_roll', { formula: '1d20' })),
        (done) => {
            const total = numberAfter(resultOf(done, 'dice_roll'), /Rolled 1d20:/) ?? 10;
            const text =
                total >= 10
                    ? line(done, 'watches you climb and claps softly.', `A fine climb! The old oak holds you well.`)
                    : line(done, 'catches you as the branch snaps.', 'Careful! The forest is not always kind to climbers.');
            return writeReply(`${text}\n\n${demoNote(`rolled ${total} on 1d20; 10 or more succeeds.`)}`);
        },
        () => commitAndFinish('The roll decided the outcome.'),
    ];
}

function approveTurn(request: DemoRequest): DemoStepBuilder[] {
    const ext = extToolCall(request);
    if (!ext) return missing(request, 'no other extension\'s tool is offered. The demo registers GladeLanterns, and the Demo profile allows it: /agent profile demo');
    return [
        () => turn('This needs another extension\'s tool: the panel asks you first.', ext),
        (done) => {
            const denied = /tool\.denied_by_user/.test(resultOf(done, ext.name));
            const text = denied
                ? `${line(done, 'lowers her hand.', 'As you wish. The lanterns stay dark tonight.')}\n\n${demoNote('you denied the tool call: it never ran.')}`
                : `${line(done, 'raises her hand, and the lanterns of the glade glow.', 'There. Now you can see the path.')}\n\n${demoNote('you approved the tool call; its result went to the agent, not the chat.')}`;
            return writeReply(text);
        },
        () => commitAndFinish('The reply follows the tool call.'),
    ];
}

function scriptTurn(request: DemoRequest): DemoStepBuilder[] {
    if (!request.tools.has('skill_run_script')) return missing(request, 'this profile may not run scripts. Set its Scripts to "skills" or "all", or pick the Demo profile: /agent profile demo');
    if (!request.system.includes(`- ${DEMO_SKILL}:`)) return missing(request, `the skill ${DEMO_SKILL} is not installed: the demo installs it when the page loads (see docs/demo.md).`);
    const subject = subjectOf(request.ask);
    return [
        () => turn('The skill has a script for this.', call('skill_run_script', { skill: DEMO_SKILL, script: DEMO_SCRIPT, args: { question: subject } })),
        (done) => {
            const omen = /"omen"\s*:\s*"([^"]{1,300})"/.exec(resultOf(done, 'skill_run_script'))?.[1] ?? 'the signs are unclear';
            return writeReply(`${line(done, 'scatters a handful of leaves and reads how they fall.', `The forest says: ${omen}.`)}\n\n${demoNote(`the omen came from the skill's script ${DEMO_SKILL}/scripts/${DEMO_SCRIPT}.js, run in the sandbox.`)}`);
        },
        () => commitAndFinish('The reply reads the omen.'),
    ];
}

function stateTurn(request: DemoRequest): DemoStepBuilder[] {
    if (!request.tools.has('state_get') || !request.tools.has('state_set') || !request.tools.has('state_patch')) {
        return missing(request, 'this profile may not change state. Pick the Demo or the Writer profile: /agent profile demo');
    }
    const path = `/${TRUST_VARIABLE}`;
    return [
        () => readCounter(path, 'How much does she trust the user so far?'),
        (done) => raiseCounter(done, path, 'Seraphina trusts the user a little more.'),
        (done) => {
            const next = (counterValue(done, path) ?? 0) + 1;
            return writeReply(`${line(done, 'studies your face, then nods.', next > 1 ? 'I trust you more each day.' : 'I am beginning to trust you.')}\n\n${demoNote(`the chat variable ${TRUST_VARIABLE} is now ${next}; type /getvar ${TRUST_VARIABLE} to see it. The commit wrote it.`)}`);
        },
        () => commitAndFinish('The reply and the trust change.'),
    ];
}

const HINTS: Partial<Record<ScenarioId, string>> = {
    fix: 'open the "…" of a reply and choose the wand (Fix this reply with the agent), or type /agent fix make it shorter.',
    director: 'type /agent pipeline before=director reply=sillytavern, then send any message: the director writes a brief, and SillyTavern writes the reply with it.',
    keeper: 'type /agent pipeline after=memory-keeper,lore-keeper,state-keeper, then send any message: the keepers work in the background after the reply.',
    help: `${TRY}. For a fix, a director or keepers, ask about "fix", "director" or "keepers". docs/demo.md lists them all.`,
};

const PLAYS: Partial<Record<ScenarioId, (request: DemoRequest) => DemoStepBuilder[]>> = {
    delegate: delegateTurn,
    lore: loreTurn,
    roll: rollTurn,
    approve: approveTurn,
    script: scriptTurn,
    state: stateTurn,
};

export function replyAgentTurn(request: DemoRequest): MockTurn {
    const scenario = scenarioFor(request.ask);
    const hint = HINTS[scenario];
    const steps = hint ? answer(`${line(request, 'smiles.', 'Of course. Let me show you.')}\n\n${demoNote(hint)}`) : (PLAYS[scenario]?.(request) ?? plainTurn(request));
    return playSteps(request, steps);
}
