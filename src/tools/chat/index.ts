import type { ToolDefinition } from '../tool';
import { readMessagesTool } from './read-messages';
import { chatSearchTool } from './search';

/** The chat tools (SPEC §3): read-only views of the run's frozen chat prefix. */
export const CHAT_TOOLS: ToolDefinition[] = [chatSearchTool, readMessagesTool];
