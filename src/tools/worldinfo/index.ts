import type { ToolDefinition } from '../tool';
import { worldInfoProposeTool } from './propose';
import { worldInfoReadTool } from './read';
import { readActivatedTool } from './read-activated';
import { worldInfoSearchTool } from './search';

/**
 * The world-info tools (SPEC §3, §9): read-only views of the run's frozen activation and lorebooks, and
 * proposals of lore changes that the user reviews (nothing is written by a tool).
 */
export const WORLDINFO_TOOLS: ToolDefinition[] = [readActivatedTool, worldInfoSearchTool, worldInfoReadTool, worldInfoProposeTool];
