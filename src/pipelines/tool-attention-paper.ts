/** The paper whose baselines B1–B4 and whose method Tool Attention the bench reproduces (the entries' `reference`). */
export const TOOL_ATTENTION_PAPER = 'Tool Attention paper (arXiv 2604.21816)';
