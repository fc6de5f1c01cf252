import type { ToolDefinition } from '../tool';
import { readActivatedTool } from './read-activated';

/** The world-info tools (SPEC §3): read-only views of the run's frozen activation. */
export const WORLDINFO_TOOLS: ToolDefinition[] = [readActivatedTool];
