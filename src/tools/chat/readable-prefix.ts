import type { PrefixMessage, RunInput } from '../../contract/run-input';

const memo = new WeakMap<readonly PrefixMessage[], readonly PrefixMessage[]>();

/**
 * The messages the chat tools may see: hidden (`is_system`) ones only when the profile opts in. Indexes
 * stay the chat's own, so a left-out message is a gap, never a shift. One array per snapshot (memoised),
 * because the search index caches its lowercased corpus per prefix array.
 */
export function readablePrefix(input: RunInput): readonly PrefixMessage[] {
    if (input.profile.context.includeHiddenMessages === true) return input.prefix;
    let readable = memo.get(input.prefix);
    if (!readable) {
        readable = input.prefix.some((message) => message.hidden) ? input.prefix.filter((message) => !message.hidden) : input.prefix;
        memo.set(input.prefix, readable);
    }
    return readable;
}
