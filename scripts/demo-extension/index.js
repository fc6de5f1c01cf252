// The `npm start` demo's own small extension (never part of Tavern Agent itself): it registers another
// extension's tool for the agent to ask about (GladeLanterns), and installs the demo skill with a script
// (glade-oracle) once Tavern Agent is ready. The Demo profile that allows them is written into the demo's
// settings by scripts/demo-setup.ts.
const SKILL = 'glade-oracle';
const SKILL_FILES = ['SKILL.md', 'scripts/omen.js'];
const here = new URL('.', import.meta.url);

function registerLanterns() {
    const context = SillyTavern.getContext();
    context.registerFunctionTool({
        name: 'GladeLanterns',
        displayName: 'Glade lanterns',
        description: 'Lights the lanterns of the glade in a colour (a demo tool: it shows a toast and answers what it did).',
        parameters: {
            type: 'object',
            properties: { color: { type: 'string', description: 'The colour of the light, e.g. silver or gold.' } },
            required: ['color'],
        },
        action: async ({ color }) => {
            const light = String(color ?? 'silver').slice(0, 40);
            globalThis.toastr?.info(`The lanterns of the glade glow ${light}.`, 'Tavern Agent demo');
            return `The lanterns of the glade are lit, glowing ${light}.`;
        },
    });
}

async function tavernAgent() {
    for (let i = 0; i < 600; i++) {
        if (globalThis.TavernAgent) return globalThis.TavernAgent;
        await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return null;
}

/** Installs the demo skill globally unless a skill of that name is already there. */
async function installSkill() {
    const agent = await tavernAgent();
    if (!agent) return;
    const installed = await agent.skills.list();
    if (installed.some((skill) => skill.name === SKILL)) return;
    const files = await Promise.all(
        SKILL_FILES.map(async (file) => {
            const response = await fetch(new URL(`skill/${SKILL}/${file}`, here));
            if (!response.ok) throw new Error(`${file}: HTTP ${response.status}`);
            // A folder's file keeps its path in webkitRelativePath, which Tavern Agent reads first.
            const picked = new File([await response.blob()], file.split('/').pop());
            Object.defineProperty(picked, 'webkitRelativePath', { value: `${SKILL}/${file}` });
            return picked;
        }),
    );
    await agent.skills.import(files, { scope: 'global', conflict: 'skip' });
    console.info(`[Tavern Agent demo] installed the skill ${SKILL}`);
}

registerLanterns();
installSkill().catch((error) => console.warn('[Tavern Agent demo] could not install the demo skill:', error));
