// The demo skill's script: a reading chosen from the question's letters, so the same question always gets
// the same omen. It runs in Tavern Agent's sandbox (no network, no timers), and notes the reading in
// scratch/omens.md.
import { workspace, log } from '@tauritavern/runtime';

const SIGNS = [
    ['an owl calls twice', 'a friend you have not met yet is close'],
    ['the moss glows silver', 'the path ahead is safe tonight'],
    ['a fox crosses the clearing', 'a clever choice will be needed soon'],
    ['the wind turns cold', 'the Shadowfangs are restless; stay near the glade'],
    ['a leaf falls into the Moonwell', 'an old wound will finally heal'],
];

export default function (args) {
    const question = String(args?.question ?? 'the glade').slice(0, 200);
    let sum = 0;
    for (const char of question) sum += char.codePointAt(0);
    const [sign, meaning] = SIGNS[sum % SIGNS.length];
    const omen = `${sign}; ${meaning}`;
    const earlier = workspace.exists('scratch/omens.md') ? workspace.readText('scratch/omens.md') : '# Omens\n';
    workspace.writeText('scratch/omens.md', `${earlier}\n- ${question}: ${omen}`);
    log.info(`read the omens for "${question}"`);
    return { omen, sign };
}
