import type { ToolDefinition } from '../tool';
import { memorySearchTool } from './search';

/** The memory tools (issue 37 §4): recall over the chat's persist/ memory. Blocks are edited with the workspace tools. */
export const MEMORY_TOOLS: ToolDefinition[] = [memorySearchTool];
