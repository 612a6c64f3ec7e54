/**
 * The hallucination gate (paper §4.5 line 8, §5.5): the after_model hook rejects a call to a
 * tool that was not promoted this turn (the model saw its summary but not its schema) with a
 * structured error, so a routing false negative is caught deterministically downstream.
 */
export interface ToolNotAvailableError {
  error: 'tool_not_available';
  tool: string;
  available: string[];
}

/** Structured errors for the calls whose tool is not in the turn's active set, in call order. */
export function hallucinationGate(activeSet: readonly string[], calls: readonly string[]): ToolNotAvailableError[] {
  const active = new Set(activeSet);
  return calls.filter((tool) => !active.has(tool)).map((tool) => ({ error: 'tool_not_available', tool, available: [...activeSet] }));
}

/** The tool result the middleware returns to the model for a rejected call. */
export function gateErrorText(error: ToolNotAvailableError): string {
  return JSON.stringify(error);
}
