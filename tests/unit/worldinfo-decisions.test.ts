// A run's lore proposals end to end in the engine (issue 19): proposed through the tool, journaled, and the
// user's decisions journaled once each, during the run (through its own journal) or after it.
// Run: node --import tsx --test tests/unit/worldinfo-decisions.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LoreDecision, LoreProposal } from '../../src/contract/lore';
import { recordLoreDecision } from '../../src/engine/archive/lore-decisions';
import { payloadsOf, rawCall, runHarness, toolTurn } from '../fixtures/run-harness';
import { sampleRunInput } from '../fixtures/run-input';

const LORE = { books: [{ name: 'Eldoria', source: 'character' as const }], chatBook: null, entries: [{ book: 'Eldoria', uid: 2, title: 'Bridge', keys: ['bridge'], content: 'A stone bridge.', activated: false }] };

const accepted = (proposalId: string): LoreDecision => ({
    proposalId,
    decision: 'accepted',
    text: { title: 'Bridge', keys: ['bridge'], content: 'Ruins.' },
    edited: false,
    written: { book: 'Chat Book', uid: 0, created: true },
});

function finishing() {
    return [
        toolTurn(rawCall('w', 'workspace_write_file', { path: 'output/main.md', content: 'Done.' })),
        toolTurn(rawCall('c', 'workspace_commit', {})),
        toolTurn(rawCall('f', 'workspace_finish', {})),
    ];
}

describe('lore proposals and decisions in the journal', () => {
    it('journals a proposal, then one decision for it after the run; a second or unknown decision is refused', async () => {
        const harness = runHarness({ script: [toolTurn(rawCall('p', 'worldinfo_propose', { ref: 'worldinfo:Eldoria#2', content: 'Ruins.' })), ...finishing()] });
        const input = sampleRunInput({ lore: LORE });
        const outcome = await harness.run(input);
        assert.equal(outcome.state, 'completed');
        const [proposal] = payloadsOf(await harness.journal(input.runId), 'lore-propose');
        assert.ok(proposal);
        assert.deepEqual(proposal.target, { book: null, uid: null });
        assert.ok(harness.pushed.some((event) => event.type === 'lore-propose'), 'the panel gets it live');

        assert.deepEqual(await recordLoreDecision(harness.storage, input.runId, accepted(proposal.proposalId)), { ok: true, value: null });
        const again = await recordLoreDecision(harness.storage, input.runId, { ...accepted(proposal.proposalId), decision: 'discarded', text: null, written: null });
        assert.equal(again.ok ? null : again.error.code, 'lore.already_decided');
        const unknown = await recordLoreDecision(harness.storage, input.runId, accepted('lore-nope'));
        assert.equal(unknown.ok ? null : unknown.error.code, 'lore.proposal_not_found');
        const events = await harness.journal(input.runId);
        assert.deepEqual(payloadsOf(events, 'lore-decide'), [accepted(proposal.proposalId)]);
        assert.deepEqual(events.map((event) => event.seq), events.map((_, i) => i), 'sequence numbers stay gapless');
    });

    it('a decision made while the run works goes through its own journal', async () => {
        let decided: Promise<unknown> | null = null;
        const harness = runHarness({
            script: [
                toolTurn(rawCall('p', 'worldinfo_propose', { title: 'Camp', content: 'The party camps.' })),
                async () => {
                    const events = await harness.journal(input.runId);
                    const [proposal] = payloadsOf(events, 'lore-propose');
                    decided = recordLoreDecision(harness.storage, input.runId, { proposalId: proposal!.proposalId, decision: 'discarded', text: null, edited: false, written: null });
                    await decided;
                    return toolTurn(rawCall('w', 'workspace_write_file', { path: 'output/main.md', content: 'Done.' }));
                },
                toolTurn(rawCall('c', 'workspace_commit', {})),
                toolTurn(rawCall('f', 'workspace_finish', {})),
            ],
        });
        const input = sampleRunInput({ lore: LORE });
        assert.equal((await harness.run(input)).state, 'completed');
        assert.deepEqual(await decided, { ok: true, value: null });
        const events = await harness.journal(input.runId);
        assert.equal(payloadsOf(events, 'lore-decide').length, 1);
        assert.deepEqual(events.map((event) => event.seq), events.map((_, i) => i), 'one writer: no sequence number handed out twice');
        assert.ok(harness.pushed.some((event) => event.type === 'lore-decide'), 'pushed live to the panel');
    });
});
